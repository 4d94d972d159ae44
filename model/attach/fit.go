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
)

// fitTries is how many ever smaller sizes Fit tries before it gives up.
const fitTries = 8

// Fit is f within maxBytes: an image larger than that is scaled down, keeping its aspect, and
// re-encoded (a JPEG as JPEG, any other image as PNG) until it fits; anything else, or an
// image already within maxBytes, is f unchanged. smaller reports whether f was scaled; the
// error says why an image could not be brought under maxBytes (what is told the user) and
// that it was not sent.
func Fit(f File, maxBytes int, limitOf string) (out File, smaller bool, err error) {
	if f.Kind != Image || len(f.Data) <= maxBytes {
		return f, false, nil
	}
	refuse := func(why string, err error) (File, bool, error) {
		return File{}, false, &ReadError{Name: f.Name, Why: fmt.Sprintf("it is %s, more than the %s %s takes, and %s",
			format.Bytes(int64(len(f.Data))), format.Bytes(int64(maxBytes)), limitOf, why), Err: err}
	}
	src, _, err := image.Decode(bytes.NewReader(f.Data))
	if err != nil {
		return refuse("it cannot be decoded to be made smaller", err)
	}
	asJPEG := f.MediaType == "image/jpeg"
	b := src.Bounds()
	// Bytes grow about with the pixel count: start at the scale that would just fit, a
	// little under it, and while the encoding is still too large shrink by what it missed by.
	scale := math.Sqrt(float64(maxBytes)/float64(len(f.Data))) * 0.9
	for range fitTries {
		w, h := max(1, int(float64(b.Dx())*scale)), max(1, int(float64(b.Dy())*scale))
		dst := canvasFor(src, w, h)
		draw.BiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
		var buf bytes.Buffer
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

// canvasFor is a w×h image to scale src into: grey for a grey image (a PNG of it stays one
// byte a pixel), else RGBA.
func canvasFor(src image.Image, w, h int) draw.Image {
	r := image.Rect(0, 0, w, h)
	if _, grey := src.(*image.Gray); grey {
		return image.NewGray(r)
	}
	return image.NewRGBA(r)
}
