package tmux

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A conversation in the full-screen chat is kept: quitting leaves a line saying where and how to
// resume it, `sessions list` shows it titled by the first prompt, `--continue` brings it back on
// screen, and Up recalls the prompt in the new process. An unknown command is not sent; /help
// lists the commands; /copy writes the reply to the clipboard through OSC 52 (tmux's buffer).
func TestTUISessionKeptAndContinued(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	env := hermeticEnv(t) // one home for both runs: the sessions live in it
	// Tall enough that /help shows every command and key without scrolling.
	p := newProgramPane(t, 110, 64, t.TempDir(), env, fs.chatArgs(t, "text"))
	p.waitFor(idleStatus)
	p.typeLine("what is a penguin")
	p.waitFor("Answer ready.")

	p.typeLine("/frobnicate")
	p.waitFor("Unknown command /frobnicate")
	if n := fs.started.Load(); n != 1 {
		t.Fatalf("%d requests after an unknown command, want the first only", n)
	}
	p.keys("C-u")
	p.typeLine("/copy")
	p.waitFor("Copied the last reply")
	p.waitUntil("the reply in tmux's paste buffer", func(string) bool {
		out, err := p.try("show-buffer") // "no buffers" until the copy lands
		return err == nil && strings.Contains(string(out), "Hello! This is a plain streamed reply")
	})
	p.typeLine("/help")
	p.waitFor("/sessions", "/copy [code [N]]", "ctrl+x ctrl+e")

	p.keys("C-c")
	p.exit("0")
	p.expect("Conversation saved to ")
	p.expect(" — resume it with: phasechat --resume ")
	screen := p.raw()

	list := exec.Command(phasechatBinary(t), "sessions", "list")
	list.Env = env
	out, err := list.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "what is a penguin") || !listedRow.Match(out) {
		t.Fatalf("sessions list: %v\n%s\n(the chat said:\n%s)", err, out, screen)
	}

	q := newProgramPane(t, 110, 40, t.TempDir(), env, fs.chatArgs(t, "text", "--continue"))
	q.waitFor("Resumed session", "what is a penguin", "Hello! This is a plain streamed reply", idleStatus)
	q.keys("Up")
	q.waitFor("│ what is a penguin")
	q.keys("C-c") // clears the recalled draft
	q.waitFor("Draft cleared. Press Ctrl+C again to quit.")
	q.keys("C-c")
	q.exit("0")
}

// Ctrl+G and Ctrl+X Ctrl+E open the draft in $VISUAL: the chat gives the terminal to the
// editor and takes it back, with the edited text in the composer.
func TestTUIEditorEditsTheDraft(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	dir := t.TempDir()
	editor := filepath.Join(dir, "editor.sh")
	script := "#!/bin/sh\nprintf '%s' \"$(cat \"$1\") and the editor's words\" > \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p := newProgramPane(t, 100, 30, dir, append(hermeticEnv(t), "VISUAL="+editor), fs.chatArgs(t, "text"))
	p.waitFor(idleStatus)
	p.typeText("my draft")
	p.keys("C-g")
	p.waitFor("│ my draft and the editor's words", "Draft edited.")
	p.keys("C-x", "C-e")
	p.waitFor("│ my draft and the editor's words and the editor's words")
	p.keys("Enter")
	p.waitFor("Answer ready.")
	p.keys("C-c")
	p.exit("0")
}

// An editor that leaves a link to an endless device where the draft was is refused in words:
// the chat neither hangs nor fills memory, and the draft stays as typed.
func TestTUIEditorLinkToADeviceIsRefused(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	dir := t.TempDir()
	editor := filepath.Join(dir, "editor.sh")
	script := "#!/bin/sh\nrm -f \"$1\" && ln -s /dev/zero \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p := newProgramPane(t, 120, 30, dir, append(hermeticEnv(t), "VISUAL="+editor), fs.chatArgs(t, "text"))
	p.waitFor(idleStatus)
	p.typeText("kept words")
	p.keys("C-g")
	p.waitFor("The edited draft was not put back", "│ kept words")
	p.keys("Enter")
	p.waitFor("Answer ready.")
	p.keys("C-c")
	p.exit("0")
}

// One-shot runs are kept but do not crowd the session picker: after a chat and a -p run in the
// same home, Ctrl+S offers the chat only, and `sessions list --all` names both.
func TestTUISessionPickerLeavesOutOneShotRuns(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	env := hermeticEnv(t)
	p := newProgramPane(t, 110, 30, t.TempDir(), env, fs.chatArgs(t, "text"))
	p.waitFor(idleStatus)
	p.typeLine("a chat about penguins")
	p.waitFor("Answer ready.")
	p.keys("C-c")
	p.exit("0")

	oneShot := exec.Command(phasechatBinary(t), fs.chatArgs(t, "text", "-p", "a one-shot about otters")[1:]...)
	oneShot.Env = env
	if out, err := oneShot.CombinedOutput(); err != nil {
		t.Fatalf("-p: %v\n%s", err, out)
	}
	list := exec.Command(phasechatBinary(t), "sessions", "list", "--all")
	list.Env = env
	if out, err := list.CombinedOutput(); err != nil || !strings.Contains(string(out), "otters") || !strings.Contains(string(out), "penguins") {
		t.Fatalf("sessions list --all: %v\n%s", err, out)
	}

	q := newProgramPane(t, 110, 30, t.TempDir(), env, fs.chatArgs(t, "text"))
	q.waitFor(idleStatus)
	q.keys("C-s")
	screen := q.waitFor("Saved conversations", "a chat about penguins")
	if strings.Contains(screen, "otters") {
		t.Fatalf("the session picker offers a one-shot run:\n%s", screen)
	}
}

// listedRow is the session's row in `sessions list`: one turn, no tokens or cost reported (the
// text scenario sends no usage), the model.
var listedRow = regexp.MustCompile(`\s1\s+-\s+-\s+text\s+what is a penguin`)
