package tmux

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Ctrl+V attaches the clipboard's image: the clipboard tool (here a stand-in xclip that prints
// red.png) is run, the chip stands on the composer's row, and the next message carries the
// image's bytes.
func TestTUICtrlVAttachesTheClipboardImage(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startBodyRecorder(t)
	dir := t.TempDir()
	writeAttachments(t, dir)
	tools := t.TempDir()
	script := "#!/bin/sh\nexec cat " + shellJoin([]string{filepath.Join(dir, "red.png")}) + "\n"
	if err := os.WriteFile(filepath.Join(tools, "xclip"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(withoutVar(hermeticEnv(t), "PATH"), "PATH="+tools+":"+os.Getenv("PATH"), "DISPLAY=:e2e")
	p := newProgramPane(t, 100, 40, dir, env, fs.chatArgs(t, "text"))
	p.waitFor(idleStatus)

	p.keys("C-v")
	p.waitFor("with [image clipboard.png · 8×8 · ")
	p.typeLine("what colour is it")
	p.waitFor("› what colour is it", "  [image clipboard.png · 8×8 · ", reply)
	waitCount(t, "requests", &fs.started, 1)
	red, err := os.ReadFile(filepath.Join(dir, "red.png"))
	if err != nil {
		t.Fatal(err)
	}
	if body := fs.body(1); !strings.Contains(body, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(red)) {
		t.Fatalf("the request lacks the clipboard's image: %.800s", body)
	}
	p.keys("C-c")
	p.exit("0")
}

// A pasted absolute path that names a file (what dragging a file into the terminal types)
// asks whether to attach it; y attaches it and the next message carries its lines.
func TestTUIADraggedFileIsAttached(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startBodyRecorder(t)
	dir := t.TempDir()
	writeAttachments(t, dir)
	p := newProgramPane(t, 100, 40, dir, hermeticEnv(t), fs.chatArgs(t, "text"))
	p.waitFor(idleStatus)

	notes := filepath.Join(dir, "notes.txt")
	p.run("set-buffer", "-b", "dragged", notes+" ")
	p.run("paste-buffer", "-p", "-b", "dragged", "-t", "e2e") // bracketed, as a terminal pastes
	p.waitFor("Attach " + notes + "? y attaches it")
	p.typeText("y")
	p.waitFor("with [file notes.txt · 3 lines]")
	p.typeLine("summarise it")
	p.waitFor("› summarise it", "  [file notes.txt · 3 lines]", reply)
	waitCount(t, "requests", &fs.started, 1)
	if body := fs.body(1); !strings.Contains(body, `alpha line\nbeta line\ngamma line`) {
		t.Fatalf("the request lacks the dragged file: %.800s", body)
	}
	p.keys("C-c")
	p.exit("0")
}
