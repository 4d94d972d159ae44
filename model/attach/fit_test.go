package attach

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"
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
		if kind != Image || media != f.MediaType || got.MediaType != media || err != nil || cfg.Width != got.Width || got.Hash() == f.Hash() {
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
	text := File{Name: "a.txt", Kind: Text, Data: []byte(strings.Repeat("x", 100))}
	if _, smaller, err := Fit(text, 10, "x"); smaller || err != nil {
		t.Errorf("a text file: smaller %v err %v", smaller, err)
	}
}

func abs(n int) int { return max(n, -n) }
