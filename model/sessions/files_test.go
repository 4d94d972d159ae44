package sessions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

func attachment(name string, data []byte) wire.Attachment {
	sum := sha256.Sum256(data)
	return wire.Attachment{Name: name, Kind: wire.AttachImage, MediaType: "image/png", Hash: hex.EncodeToString(sum[:]), Size: len(data), Data: data}
}

// TestAttachmentsAreKeptOnceAndComeBackOnResume: the log names an attachment by its hash, the
// bytes live once in the files folder, and loading the session gives them back; a kept file
// changed on disk is not given back as if it were the same.
func TestAttachmentsAreKeptOnceAndComeBackOnResume(t *testing.T) {
	s := openStore(t)
	img := attachment("red.png", []byte("\x89PNG\r\n\x1a\nimage bytes"))
	for range 2 { // the same file in two conversations is kept once
		ss := s.Begin(Start{})
		m := wire.Message{Role: "user", Parts: wire.TextParts("what is this?"), Attachments: []wire.Attachment{img}}
		ss.Add(chat.Record{Message: &m})
		ss.Add(assistant("a red dot"))
		closeSession(t, ss)
		log, _ := os.ReadFile(ss.Path())
		if bytes.Contains(log, []byte("image bytes")) || !bytes.Contains(log, []byte(img.Hash)) {
			t.Fatalf("the log holds the bytes or lacks the hash:\n%s", log)
		}
	}
	kept, err := os.ReadDir(s.Dir() + "/" + filesFolder)
	if err != nil || len(kept) != 1 {
		t.Fatalf("files folder: %v, %v", kept, err)
	}
	all, _ := s.List()
	r, err := s.Load(all[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Messages[0].Attachments; len(got) != 1 || !bytes.Equal(got[0].Data, img.Data) {
		t.Fatalf("resumed attachments: %+v", got)
	}
	os.WriteFile(s.filePath(img.Hash), []byte("something else"), 0o600)
	r, _ = s.Load(all[0])
	if r.Messages[0].Attachments[0].Data != nil {
		t.Error("a changed kept file came back as the attachment")
	}
	if err := wire.CheckAttachments(wire.WireChat, r.Messages); err == nil || !strings.Contains(err.Error(), "no longer in the session store") {
		t.Errorf("a request with the lost file: %v", err)
	}
}

func TestValidHashNamesOnlyFiles(t *testing.T) {
	for h, want := range map[string]bool{
		strings.Repeat("ab", 32): true, strings.Repeat("AB", 32): false, "../../etc/passwd": false,
		strings.Repeat("a", 63): false, strings.Repeat("zz", 32): false,
	} {
		if validHash(h) != want {
			t.Errorf("validHash(%q) = %v", h, !want)
		}
	}
}

func TestMarkdownExportListsAttachments(t *testing.T) {
	s := openStore(t)
	notes := attachment("notes.txt", []byte("line one\nline two\n"))
	notes.Kind, notes.MediaType, notes.Lines = wire.AttachText, "text/plain", 2
	ss := s.Begin(Start{})
	m := wire.Message{Role: "user", Parts: wire.TextParts("read this"), Attachments: []wire.Attachment{notes}}
	ss.Add(chat.Record{Message: &m})
	closeSession(t, ss)
	all, _ := s.List()
	r, err := s.Load(all[0])
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	if err := Markdown(&md, all[0], r.Log); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- [file notes.txt · 2 lines] (kept as files/" + notes.Hash, "```\nline one\nline two\n```"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("export lacks %q:\n%s", want, md.String())
		}
	}
}

// A session keeps a message's files before the line naming them is in its log, and writes the
// lines after it after it: its log never names a file not kept yet. A file that cannot be kept
// is the session's error.
func TestSessionKeepsFilesBeforeTheLineNamingThem(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{})
	var (
		mu   sync.Mutex
		seen []string // the log as it was each time files were kept
	)
	keepFilesIn = func(dir string, r chat.Record) error {
		b, _ := os.ReadFile(ss.Path())
		mu.Lock()
		seen = append(seen, string(b))
		mu.Unlock()
		if err := KeepFiles(dir, r); err != nil {
			return err
		}
		return errors.New("the disk is full")
	}
	t.Cleanup(func() { keepFilesIn = KeepFiles })
	notes := attachment("notes.txt", []byte("the notes"))
	ss.Add(user("first"))
	ss.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("with a file"), Attachments: []wire.Attachment{notes}}})
	ss.Add(assistant("after"))
	if err := ss.Close(); err == nil || err.Error() != "the disk is full" {
		t.Fatalf("Close = %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || !strings.Contains(seen[0], `"first"`) || strings.Contains(seen[0], notes.Hash) {
		t.Fatalf("the files were kept when the log held %q", seen)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), filesFolder, notes.Hash)); err != nil {
		t.Fatal(err)
	}
	if log, _ := os.ReadFile(ss.Path()); !bytes.Contains(log, []byte(notes.Hash)) {
		t.Fatalf("the log does not name the kept file:\n%s", log)
	}
}
