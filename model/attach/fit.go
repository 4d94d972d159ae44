package attach

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"

	"golang.org/x/image/draw"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/stream/wire"
)

// fitTries is how many ever smaller sizes Fit tries before it gives up.
const fitTries = 8

// maxFitPixels bounds the images Fit decodes: one of more pixels is refused before it is
// decoded (decoded, it would take 4 bytes a pixel).
const maxFitPixels = 40_000_000

// Fit is f within maxBytes: an image larger than that is scaled down, keeping its aspect, and
// re-encoded (a JPEG as JPEG, any other image as PNG) until it fits; anything else, or an
// image already within maxBytes, is f unchanged. smaller reports whether f was scaled; the
// error says why an image could not be brought under maxBytes (what is told the user) and
// that it was not sent. Besides the image decoded at full size, it holds at most a copy of a
// quarter of its pixels, the scaled image and its encoding; the full-size image is let go
// once that copy is made.
func Fit(f File, maxBytes int, limitOf string) (out File, smaller bool, err error) {
	if f.Kind != wire.AttachImage || len(f.Data) <= maxBytes {
		return f, false, nil
	}
	refuse := func(why string, err error) (File, bool, error) {
		return File{}, false, &ReadError{Name: f.Name, Why: fmt.Sprintf("it is %s, more than the %s %s takes, and %s",
			format.Bytes(int64(len(f.Data))), format.Bytes(int64(maxBytes)), limitOf, why), Err: err}
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(f.Data))
	if err != nil {
		return refuse("it cannot be decoded to be made smaller", err)
	}
	if pixels := int64(cfg.Width) * int64(cfg.Height); pixels > maxFitPixels {
		return refuse(fmt.Sprintf("at %d×%d pixels it is too large to be made smaller (at most %d megapixels)",
			cfg.Width, cfg.Height, maxFitPixels/1_000_000), nil)
	}
	src, _, err := image.Decode(bytes.NewReader(f.Data))
	if err != nil {
		return refuse("it cannot be decoded to be made smaller", err)
	}
	_, grey := src.(*image.Gray) // a PNG of a grey image stays one byte a pixel
	asJPEG := f.MediaType == "image/jpeg"
	full := src.Bounds()
	var pix []byte // the scaled image's pixels, reused by each smaller try
	var buf bytes.Buffer
	buf.Grow(maxBytes)
	// Bytes grow about with the pixel count: start at the scale that would just fit, a
	// little under it, and while the encoding is still too large shrink by what it missed by.
	scale := math.Sqrt(float64(maxBytes)/float64(len(f.Data))) * 0.9
	for range fitTries {
		w, h := max(1, int(float64(full.Dx())*scale)), max(1, int(float64(full.Dy())*scale))
		// Averaging whole blocks first leaves the interpolation under a halving, where it
		// needs no buffer beyond its destination and skips no pixel.
		if k := min(src.Bounds().Dx()/w, src.Bounds().Dy()/h); k >= 2 {
			src = boxShrink(src, k)
		}
		var dst draw.Image
		dst, pix = canvas(grey, w, h, pix)
		draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
		buf.Reset()
		if asJPEG {
			err = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85})
		} else {
			err = png.Encode(&buf, dst)
		}
		if err != nil {
			return refuse("it could not be re-encoded smaller", err)
		}
		if buf.Len() <= maxBytes {
			out = f
			out.Data, out.Width, out.Height = buf.Bytes(), w, h
			if !asJPEG {
				out.MediaType = "image/png"
			}
			return out, true, nil
		}
		if w == 1 && h == 1 {
			break
		}
		scale *= min(0.9, math.Sqrt(float64(maxBytes)/float64(buf.Len()))*0.9)
	}
	return refuse(fmt.Sprintf("scaling it down %d times did not bring it under", fitTries), nil)
}

// canvas is a w×h image to scale into, on pix when it holds enough bytes: grey (one byte a
// pixel) or RGBA. It returns the bytes it stands on.
func canvas(grey bool, w, h int, pix []byte) (draw.Image, []byte) {
	r := image.Rect(0, 0, w, h)
	if grey {
		if cap(pix) < w*h {
			pix = make([]byte, w*h)
		}
		return &image.Gray{Pix: pix[:w*h], Stride: w, Rect: r}, pix
	}
	if cap(pix) < 4*w*h {
		pix = make([]byte, 4*w*h)
	}
	return &image.RGBA{Pix: pix[:4*w*h], Stride: 4 * w, Rect: r}, pix
}

// boxShrink is src with each k×k block of pixels averaged into one (what is left over at the
// right and bottom edges is dropped). It reads src k rows at a time.
func boxShrink(src image.Image, k int) *image.RGBA {
	b := src.Bounds()
	w, h := b.Dx()/k, b.Dy()/k
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	band := image.NewRGBA(image.Rect(0, 0, w*k, k))
	sums := make([]uint32, 4*w)
	n := uint32(k * k)
	for y := range h {
		draw.Draw(band, band.Bounds(), src, image.Pt(b.Min.X, b.Min.Y+y*k), draw.Src)
		clear(sums)
		for r := range k {
			row := band.Pix[r*band.Stride:][:4*w*k]
			for x := range w * k {
				to, from := 4*(x/k), 4*x
				sums[to] += uint32(row[from])
				sums[to+1] += uint32(row[from+1])
				sums[to+2] += uint32(row[from+2])
				sums[to+3] += uint32(row[from+3])
			}
		}
		line := out.Pix[y*out.Stride:][:4*w]
		for i, s := range sums {
			line[i] = uint8((s + n/2) / n)
		}
	}
	return out
}
