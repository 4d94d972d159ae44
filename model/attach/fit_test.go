package attach

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// noise is a w×h image of random pixels: it hardly compresses, so its file is large.
func noise(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(r.UintN(256)), uint8(r.UintN(256)), uint8(r.UintN(256)), 255})
		}
	}
	return img
}

func encoded(t *testing.T, name string, img image.Image, asJPEG bool) File {
	t.Helper()
	var b bytes.Buffer
	var err error
	if asJPEG {
		err = jpeg.Encode(&b, img, &jpeg.Options{Quality: 95})
	} else {
		err = png.Encode(&b, img)
	}
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromBytes(name, b.Bytes(), DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// An image over the limit is scaled down, keeping its aspect and kind, until it fits.
func TestFitScalesAnImageDownUntilItFits(t *testing.T) {
	for _, asJPEG := range []bool{false, true} {
		f := encoded(t, "shot", noise(240, 160), asJPEG)
		limit := len(f.Data) / 4
		got, smaller, err := Fit(f, limit, "the test format")
		if err != nil || !smaller {
			t.Fatalf("jpeg %v: smaller %v, err %v", asJPEG, smaller, err)
		}
		if len(got.Data) > limit || got.Width >= 240 || got.Height >= 160 || abs(got.Width*160-got.Height*240) > 240 {
			t.Errorf("jpeg %v: %d bytes (limit %d), %d×%d", asJPEG, len(got.Data), limit, got.Width, got.Height)
		}
		kind, media, _ := Sniff(got.Data)
		cfg, _, err := image.DecodeConfig(bytes.NewReader(got.Data))
		if kind != wire.AttachImage || media != f.MediaType || got.MediaType != media || err != nil || cfg.Width != got.Width || got.Hash() == f.Hash() {
			t.Errorf("jpeg %v: re-encoded as %s (%s), decodes %v %d wide", asJPEG, media, got.MediaType, err, cfg.Width)
		}
	}
}

// An image that cannot be made small enough is refused, saying the limit and whose it is;
// one within the limit and a text file are left as they are.
func TestFitRefusesWhatCannotBeMadeSmallEnough(t *testing.T) {
	f := encoded(t, "shot.png", noise(40, 40), false)
	_, _, err := Fit(f, 10, "Anthropic Messages")
	var re *ReadError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "cannot attach shot.png: it is ") || !strings.Contains(err.Error(), "more than the 10 B Anthropic Messages takes") {
		t.Fatalf("err %v", err)
	}
	if got, smaller, err := Fit(f, len(f.Data), "x"); smaller || err != nil || !bytes.Equal(got.Data, f.Data) {
		t.Errorf("an image within the limit: smaller %v err %v", smaller, err)
	}
	text := File{Name: "a.txt", Kind: wire.AttachText, Data: []byte(strings.Repeat("x", 100))}
	if _, smaller, err := Fit(text, 10, "x"); smaller || err != nil {
		t.Errorf("a text file: smaller %v err %v", smaller, err)
	}
}

func abs(n int) int { return max(n, -n) }

// BenchmarkFit scales a 12-megapixel photo (a JPEG) and screenshot (a PNG) of noise to a
// quarter of their bytes.
func BenchmarkFit(b *testing.B) {
	img := noise(4000, 3000)
	for _, asJPEG := range []bool{true, false} {
		var buf bytes.Buffer
		var err error
		if asJPEG {
			err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
		} else {
			err = png.Encode(&buf, img)
		}
		if err != nil {
			b.Fatal(err)
		}
		kind, media, _ := Sniff(buf.Bytes())
		f := File{Name: "shot", Kind: kind, MediaType: media, Data: buf.Bytes(), Width: 4000, Height: 3000}
		b.Run(media, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, smaller, err := Fit(f, len(f.Data)/4, "x"); err != nil || !smaller {
					b.Fatal(smaller, err)
				}
			}
		})
	}
}

// Scaling an image down allocates a few bytes a pixel of it: no buffer grows with the
// product of the source's and the destination's sizes.
func TestFitAllocatesAboutTheImage(t *testing.T) {
	const w, h = 1000, 750
	for _, asJPEG := range []bool{true, false} {
		f := encoded(t, "shot", noise(w, h), asJPEG)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, smaller, err := Fit(f, len(f.Data)/4, "x"); err != nil || !smaller {
			t.Fatal(smaller, err)
		}
		runtime.ReadMemStats(&after)
		if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(10*w*h); got > bound {
			t.Errorf("jpeg %v: scaling a %d×%d image allocated %d bytes, more than %d", asJPEG, w, h, got, bound)
		}
	}
}

// An image of absurd dimensions is refused before it is decoded, saying its size.
func TestFitRefusesAnImageTooLargeToDecode(t *testing.T) {
	header := []byte("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		header = binary.BigEndian.AppendUint32(header, uint32(len(data)))
		header = append(header, kind...)
		header = append(header, data...)
		header = binary.BigEndian.AppendUint32(header, crc32.ChecksumIEEE(append([]byte(kind), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, 50000)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 40000)
	chunk("IHDR", append(ihdr, 8, 6, 0, 0, 0)) // 8-bit RGBA
	chunk("IDAT", bytes.Repeat([]byte{0}, 64))
	chunk("IEND", nil)
	f := File{Name: "huge.png", Kind: wire.AttachImage, MediaType: "image/png", Data: header}
	_, _, err := Fit(f, 10, "x")
	if err == nil || !strings.Contains(err.Error(), "at 50000×40000 pixels it is too large to be made smaller (at most 40 megapixels)") {
		t.Errorf("err %v", err)
	}
}
