package app

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
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
	files, notes, err := Attached{f}.Files(wire.WireAnthropic)
	if err != nil || len(files) != 1 {
		t.Fatalf("files %d, err %v", len(files), err)
	}
	if got := files[0]; got.Size > wire.MaxImageBytes(wire.WireAnthropic) || got.Width >= 2400 || got.Size != len(got.Data) {
		t.Errorf("sent %d bytes, %d×%d", got.Size, got.Width, got.Height)
	}
	if !strings.Contains(notes[0], "made smaller to fit the 5 MB Anthropic Messages takes (it was 2400×2400, ") {
		t.Errorf("note %q", notes[0])
	}
	// Line mode speaks a note's file by replacing this start with the file's spoken form.
	if !strings.HasPrefix(notes[0], "attached "+files[0].Chip()) {
		t.Errorf("note %q does not start with %q", notes[0], "attached "+files[0].Chip())
	}
	if err := wire.CheckAttachments(wire.WireAnthropic, []wire.Message{{Role: "user", Attachments: files}}); err != nil {
		t.Errorf("the fitted image is refused: %v", err)
	}
	same, notes, err := Attached{f}.Files(wire.WireChat)
	if err != nil || same[0].Size != b.Len() || strings.Contains(notes[0], "smaller") {
		t.Errorf("Chat Completions: %d bytes, note %q, err %v", same[0].Size, notes[0], err)
	}
}

// A secret in a text file reaches no request, whichever way the file is attached: /attach, an
// @mention, the clipboard, or -a (read before the secrets are known); the note counts it.
func TestASecretInAnAttachedFileReachesNoRequest(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("OPENAI_API_KEY="+key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	secrets := secret.New(key)
	r := FileReader{Dir: dir, Secrets: secrets, Wire: wire.WireChat}
	early, err := ReadAttachments([]string{filepath.Join(dir, ".env")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ways := map[string]func() ([]wire.Attachment, []string, error){
		"/attach":  func() ([]wire.Attachment, []string, error) { return r.Read([]string{".env"}) },
		"@mention": func() ([]wire.Attachment, []string, error) { return r.Mentioned("read @.env") },
		"pasted": func() ([]wire.Attachment, []string, error) {
			return r.Pasted(".env", []byte("OPENAI_API_KEY="+key+"\n"))
		},
		"-a": func() ([]wire.Attachment, []string, error) { return early.WithoutSecrets(secrets).Files(wire.WireChat) },
	}
	for way, read := range ways {
		files, notes, err := read()
		if err != nil || len(files) != 1 {
			t.Fatalf("%s: %d files, err %v", way, len(files), err)
		}
		for _, w := range []wire.Wire{wire.WireChat, wire.WireAnthropic, wire.WireResponses} {
			req := wire.Request{Model: "m", Messages: []wire.Message{{Role: "user", Parts: wire.TextParts("what is this?"), Attachments: files}}}
			body, err := wire.Encode(w, req, true, false, false, nil)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(body, []byte(key)) || !bytes.Contains(body, []byte("OPENAI_API_KEY="+secret.Redacted)) {
				t.Errorf("%s, %s: the request carries %s", way, w.Label(), body)
			}
		}
		if !strings.HasSuffix(notes[0], "; 1 secret was removed from it") || files[0].Lines != 1 {
			t.Errorf("%s: note %q, %d lines", way, notes[0], files[0].Lines)
		}
	}
}
