package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeTool puts an executable named name on PATH running script, with only X11 about.
func fakeTool(t *testing.T, name, script string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("DISPLAY", ":0")
}

// Ctrl+V's reader asks xclip for the clipboard's PNG and gives it as an attachment.
func TestClipboardImageReadsXclipsPNG(t *testing.T) {
	fakeTool(t, "xclip", `[ "$*" = "-selection clipboard -t image/png -o" ] || exit 3
printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\10\2\0\0\0\220wS\336\0\0\0\fIDATx\234c\370\317\300\0\0\3\1\1\0\311\376\222\357\0\0\0\0IEND\256B`+"`"+`\202'
`)
	read := ClipboardImage()
	if read == nil {
		t.Fatal("no reader with xclip on PATH")
	}
	data, err := read()
	if err != nil {
		t.Fatal(err)
	}
	files, notes, err := FileReader{}.Pasted("clipboard.png", data)
	if err != nil || len(files) != 1 || files[0].Width != 1 || !strings.Contains(notes[0], "[image clipboard.png · 1×1 · ") {
		t.Fatalf("files %+v, notes %q, err %v", files, notes, err)
	}
}

// A clipboard without an image, a tool that never ends and one that prints too much are
// errors, each in words; the reads are bounded.
func TestClipboardImageFailsInWords(t *testing.T) {
	sleep, errSleep := exec.LookPath("sleep")
	yes, errYes := exec.LookPath("yes")
	if errSleep != nil || errYes != nil {
		t.Skip("no sleep or yes here")
	}
	fakeTool(t, "xclip", "echo 'Error: target image/png not available' >&2; exit 1\n")
	if _, err := ClipboardImage()(); err == nil || err.Error() != "the clipboard holds no image (xclip: Error: target image/png not available)" {
		t.Errorf("no image: %v", err)
	}
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow")
	os.WriteFile(slow, []byte("#!/bin/sh\nexec "+sleep+" 60\n"), 0o755)
	if _, err := readTool(slow, []string{"slow"}, 10, 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "slow did not answer within 50ms") {
		t.Errorf("a tool that never ends: %v", err)
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte("#!/bin/sh\nexec "+yes+"\n"), 0o755)
	if _, err := readTool(big, []string{"big"}, 1000, time.Minute); err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Errorf("a tool that prints too much: %v", err)
	}
}
