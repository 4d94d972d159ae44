package attach

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/stream/wire"
)

// pngOf is a w×h PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSniffKnowsAFileByItsBytes(t *testing.T) {
	cases := []struct {
		name string
		data string
		kind wire.AttachmentKind
		mt   string
		ok   bool
	}{
		{"png", "\x89PNG\r\n\x1a\nrest", wire.AttachImage, "image/png", true},
		{"jpeg", "\xff\xd8\xff\xe0JFIF", wire.AttachImage, "image/jpeg", true},
		{"gif87", "GIF87a....", wire.AttachImage, "image/gif", true},
		{"gif89", "GIF89a....", wire.AttachImage, "image/gif", true},
		{"webp", "RIFF\x10\x00\x00\x00WEBPVP8 ", wire.AttachImage, "image/webp", true},
		{"riff that is not webp", "RIFF\x10\x00\x00\x00WAVEfmt ", "", "", false},
		{"pdf", "%PDF-1.7\n", wire.AttachPDF, "application/pdf", true},
		{"text", "package main\n", wire.AttachText, "text/plain", true},
		{"persian text", "می\u200cخواهم\n", wire.AttachText, "text/plain", true},
		{"empty", "", wire.AttachText, "text/plain", true},
		{"nul", "ab\x00cd", "", "", false},
		{"latin-1", "caf\xe9", "", "", false},
		{"png name, text bytes", "not really a png", wire.AttachText, "text/plain", true},
	}
	for _, c := range cases {
		kind, mt, ok := Sniff([]byte(c.data))
		if kind != c.kind || mt != c.mt || ok != c.ok {
			t.Errorf("%s: Sniff = %v %q %v, want %v %q %v", c.name, kind, mt, ok, c.kind, c.mt, c.ok)
		}
	}
}

func TestSniffForgivesARuneCutByTheSample(t *testing.T) {
	data := []byte(strings.Repeat("a", textSniff-1) + "é" + "tail")
	if kind, _, ok := Sniff(data); !ok || kind != wire.AttachText {
		t.Fatalf("a long UTF-8 file with a rune across the sample's end: %v %v", kind, ok)
	}
}

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadTakesTextAndImages(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "notes.txt", []byte("one\ntwo\nthree"))
	write(t, dir, "red.png", pngOf(t, 8, 6))
	f, err := Read(dir, "notes.txt", DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != wire.AttachText || f.Lines != 3 || f.Chip() != "[file notes.txt · 3 lines]" || f.Resolved != "" {
		t.Errorf("text: %+v chip %q", f, f.Chip())
	}
	img, err := Read(dir, "red.png", DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if img.Kind != wire.AttachImage || img.Width != 8 || img.Height != 6 || !strings.HasPrefix(img.Chip(), "[image red.png · 8×6 · ") {
		t.Errorf("image: %v %dx%d chip %q", img.Kind, img.Width, img.Height, img.Chip())
	}
	if len(img.Hash()) != 64 {
		t.Errorf("hash %q", img.Hash())
	}
}

func TestReadShowsWhereALinkLed(t *testing.T) {
	dir := t.TempDir()
	target := write(t, dir, "real.md", []byte("# hi\n"))
	if err := os.Symlink(target, filepath.Join(dir, "link.md")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	f, err := Read(dir, "link.md", DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(target); f.Resolved != want {
		t.Errorf("Resolved = %q, want %q", f.Resolved, want)
	}
}

func TestReadRefusesWhatIsNotADocument(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "blob.bin", []byte("\x7fELF\x02\x01\x01\x00\x00\x00"))
	write(t, dir, "big.txt", bytes.Repeat([]byte("a"), 2048))
	write(t, dir, "fake.png", []byte("\x89PNG\r\n\x1a\nnot a real image"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	fifo := filepath.Join(dir, "pipe")
	haveFIFO := syscall.Mkfifo(fifo, 0o600) == nil
	lim := Limits{Text: 1024, Image: 1 << 20, PDF: 1 << 20}
	cases := []struct{ name, want string }{
		{"blob.bin", "binary file"},
		{"big.txt", "more than the 1 KB a file attachment may be"},
		{"fake.png", "cannot be read as one"},
		{"sub", "is a directory"},
		{"missing.txt", "no such file"},
		{"/proc/self/status", "system file under /proc"},
		{"/dev/zero", "system file under /dev"},
	}
	if haveFIFO {
		cases = append(cases, struct{ name, want string }{"pipe", "not a regular file"})
	}
	for _, c := range cases {
		_, err := Read(dir, c.name, lim, nil)
		var re *ReadError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "cannot attach ") {
			t.Errorf("%s: err = %v, want a ReadError saying %q", c.name, err, c.want)
		}
	}
}

func TestReadRemovesSecretsFromText(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".env", []byte("OPENAI_API_KEY=sk-test-0123456789abcdef\nother=1\n"))
	f, err := Read(dir, ".env", DefaultLimits, secret.New("sk-test-0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(f.Data), "sk-test") || f.Redacted != 1 {
		t.Errorf("data %q, redacted %d", f.Data, f.Redacted)
	}
}
