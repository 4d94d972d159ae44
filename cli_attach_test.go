package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// attachmentFiles writes a 3×2 PNG and a two-line text file, and returns their paths.
func attachmentFiles(t *testing.T) (img, notes string) {
	t.Helper()
	dir := t.TempDir()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	img, notes = filepath.Join(dir, "red.png"), filepath.Join(dir, "notes.txt")
	if os.WriteFile(img, b.Bytes(), 0o600) != nil || os.WriteFile(notes, []byte("first line\nsecond line\n"), 0o600) != nil {
		t.Fatal("cannot write the attachments")
	}
	return img, notes
}

// TestOneShotSendsAttachmentsInEachFormat: -a sends a text file and an image as each wire
// format's own parts, after the prompt, and says what it attached.
func TestOneShotSendsAttachmentsInEachFormat(t *testing.T) {
	img, notes := attachmentFiles(t)
	cases := []struct {
		wire, model string
		want        []string
	}{
		{"chat", "text", []string{`"type":"image_url"`, `"url":"data:image/png;base64,`, `\u003cfile path=`}},
		{"anthropic", "anthropic-text", []string{`"type":"image"`, `"media_type":"image/png"`, `\u003cfile path=`}},
		{"responses", "responses-text", []string{`"type":"input_image"`, `"image_url":"data:image/png;base64,`, `"type":"input_text"`}},
	}
	for _, c := range cases {
		t.Run(c.wire, func(t *testing.T) {
			rf := newRecordingFixtures(t, 0, "")
			r := runOneShotChild(t, t.TempDir(), "", "-p", "what are these?", "-a", img, "-a", notes,
				"--base-url", rf.base, "--wire", c.wire, "-m", c.model, "--no-save")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			rf.mu.Lock()
			body := string(rf.bodies[len(rf.bodies)-1])
			rf.mu.Unlock()
			for _, w := range append(c.want, "first line\\nsecond line", "what are these?") {
				if !strings.Contains(body, w) {
					t.Errorf("the request lacks %s:\n%.600s", w, body)
				}
			}
			if !strings.Contains(r.stderr, "attached [image red.png · 3×2 · ") || !strings.Contains(r.stderr, "attached [file notes.txt · 2 lines]") {
				t.Errorf("stderr does not say what was attached:\n%s", r.stderr)
			}
		})
	}
}

// TestOneShotRefusesABinaryAttachmentBeforeSending: nothing reaches the server, the exit is
// a usage error, and the reason names the file.
func TestOneShotRefusesABinaryAttachmentBeforeSending(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	blob := filepath.Join(t.TempDir(), "blob.bin")
	os.WriteFile(blob, []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00"), 0o600)
	for _, args := range [][]string{{"-a", blob}, {"-a", filepath.Join(t.TempDir(), "missing.txt")}} {
		r := runOneShotChild(t, t.TempDir(), "", append([]string{"-p", "look", "--base-url", rf.base, "--no-save"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "cannot attach ") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	if len(rf.bodies) != 0 {
		t.Errorf("%d requests were sent", len(rf.bodies))
	}
}

// TestOneShotAttachesStandardInput: -a - is standard input as a file, and the prompt may be
// left out when a file is the question.
func TestOneShotAttachesStandardInput(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	r := runOneShotChild(t, t.TempDir(), "piped text\n", "-p", "-a", "-", "--base-url", rf.base, "-m", "text", "--no-save")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rf.mu.Lock()
	body := string(rf.bodies[len(rf.bodies)-1])
	rf.mu.Unlock()
	if !strings.Contains(body, `path=\"stdin\"`) || !strings.Contains(body, "piped text") {
		t.Errorf("request: %.400s", body)
	}
}

// TestOneShotRefusesAnImageForATextOnlyModel: the catalogue says o3-mini takes no images, so
// nothing is sent and the reason says how to override; the config file's images key does.
func TestOneShotRefusesAnImageForATextOnlyModel(t *testing.T) {
	img, _ := attachmentFiles(t)
	rf := newRecordingFixtures(t, 0, "")
	r := runOneShotChild(t, t.TempDir(), "", "-p", "look", "-a", img, "--base-url", rf.base, "-m", "o3-mini", "--no-save")
	if r.code == 0 || !strings.Contains(r.stderr, "o3-mini takes no images") || !strings.Contains(r.stderr, "images = true") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	rf.mu.Lock()
	sent := len(rf.bodies)
	rf.mu.Unlock()
	if sent != 0 {
		t.Fatalf("%d requests were sent", sent)
	}
	cfg := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(cfg, []byte("[model.\"o3-mini\"]\nimages = true\n"), 0o600)
	r = runOneShotChild(t, t.TempDir(), "", "-p", "look", "-a", img, "--base-url", rf.base, "-m", "o3-mini", "--no-save", "--config", cfg)
	rf.mu.Lock()
	sent = len(rf.bodies)
	rf.mu.Unlock()
	if sent != 1 {
		t.Errorf("with images = true: exit %d, %d requests, stderr %q", r.code, sent, r.stderr)
	}
}

// TestALogFileKeepsItsAttachmentsBesideIt: --log FILE keeps the bytes in FILE.files (the log
// names them by hash), and --resume FILE sends them again.
func TestALogFileKeepsItsAttachmentsBesideIt(t *testing.T) {
	_, notes := attachmentFiles(t)
	rf := newRecordingFixtures(t, 0, "")
	logPath := filepath.Join(t.TempDir(), "chat.jsonl")
	r := runOneShotChild(t, t.TempDir(), "", "-p", "read this", "-a", notes, "--base-url", rf.base, "-m", "text", "--no-save", "--log", logPath)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	log, _ := os.ReadFile(logPath)
	kept, err := os.ReadDir(logPath + ".files")
	if err != nil || len(kept) != 1 || !strings.Contains(string(log), kept[0].Name()) || strings.Contains(string(log), "second line") {
		t.Fatalf("beside the log: %v, %v; the log:\n%s", kept, err, log)
	}
	r = runOneShotChild(t, t.TempDir(), "", "-p", "and again", "--base-url", rf.base, "-m", "text", "--no-save", "--resume", logPath)
	if r.code != 0 {
		t.Fatalf("resumed: exit %d: %s", r.code, r.stderr)
	}
	rf.mu.Lock()
	body := string(rf.bodies[len(rf.bodies)-1])
	rf.mu.Unlock()
	if !strings.Contains(body, "first line\\nsecond line") || !strings.Contains(body, "and again") {
		t.Errorf("the resumed request lacks the file: %.600s", body)
	}
}
