package app

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/attach"
	"github.com/phasechat/phasechat/stream/wire"
)

// An image over Anthropic's 5 MB is made smaller for Messages, and the note says so; the
// OpenAI formats, which take it, get it as it is.
func TestFilesFitImagesToTheWireFormat(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 2400, 2400))
	r := rand.New(rand.NewPCG(3, 4))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.UintN(256))
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= wire.MaxImageBytes(wire.WireAnthropic) {
		t.Fatalf("the test image is only %d bytes", b.Len())
	}
	f, err := attach.FromBytes("big.png", b.Bytes(), attach.DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	files, notes, err := Attached{f}.Files(nil, wire.WireAnthropic)
	if err != nil || len(files) != 1 {
		t.Fatalf("files %d, err %v", len(files), err)
	}
	if got := files[0]; got.Size > wire.MaxImageBytes(wire.WireAnthropic) || got.Width >= 2400 || got.Size != len(got.Data) {
		t.Errorf("sent %d bytes, %d×%d", got.Size, got.Width, got.Height)
	}
	if !strings.Contains(notes[0], "made smaller to fit the 5 MB Anthropic Messages takes (it was 2400×2400, ") {
		t.Errorf("note %q", notes[0])
	}
	if err := wire.CheckAttachments(wire.WireAnthropic, []wire.Message{{Role: "user", Attachments: files}}); err != nil {
		t.Errorf("the fitted image is refused: %v", err)
	}
	same, notes, err := Attached{f}.Files(nil, wire.WireChat)
	if err != nil || same[0].Size != b.Len() || strings.Contains(notes[0], "smaller") {
		t.Errorf("Chat Completions: %d bytes, note %q, err %v", same[0].Size, notes[0], err)
	}
}
