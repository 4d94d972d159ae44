package sessions

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// TestRemovingASessionDeletesTheFilesOnlyItUsed: a file two conversations carry stays until
// both are removed; a file kept moments ago that no log names yet stays too.
func TestRemovingASessionDeletesTheFilesOnlyItUsed(t *testing.T) {
	s := openStore(t)
	shared := attachment("shared.png", []byte("\x89PNG\r\n\x1a\nshared"))
	own := attachment("own.png", []byte("\x89PNG\r\n\x1a\nown"))
	write := func(files ...wire.Attachment) string {
		ss := s.Begin(Start{})
		m := wire.Message{Role: "user", Parts: wire.TextParts("look"), Attachments: files}
		ss.Add(chat.Record{Message: &m})
		ss.Add(assistant("seen"))
		closeSession(t, ss)
		return ss.ID()
	}
	first, second := write(shared, own), write(shared)
	has := func(a wire.Attachment) bool {
		_, err := os.Lstat(s.filePath(a.Hash))
		return err == nil
	}
	old := time.Now().Add(-2 * fileGrace)
	for _, a := range []wire.Attachment{shared, own} {
		os.Chtimes(s.filePath(a.Hash), old, old)
	}
	if _, err := s.Remove(first); err != nil {
		t.Fatal(err)
	}
	if has(own) || !has(shared) {
		t.Fatalf("after removing the first: own kept %v, shared kept %v", has(own), has(shared))
	}
	fresh := attachment("fresh.png", []byte("\x89PNG\r\n\x1a\nfresh"))
	if err := keepFileIn(filepath.Dir(s.filePath(fresh.Hash)), fresh.Hash, fresh.Data); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(s.filePath(shared.Hash), old, old)
	if _, err := s.Remove(second); err != nil {
		t.Fatal(err)
	}
	if has(shared) || !has(fresh) {
		t.Errorf("after removing the second: shared kept %v, fresh kept %v", has(shared), has(fresh))
	}
	if n, err := s.collectFiles(time.Now().Add(2 * fileGrace)); n != 1 || err != nil || has(fresh) {
		t.Errorf("past the grace: %d collected, %v", n, err)
	}
}

// Reusing a kept file renews it, so a collection between keeping and logging spares it.
func TestReusingAKeptFileRenewsIt(t *testing.T) {
	s := openStore(t)
	a := attachment("a.png", []byte("\x89PNG\r\n\x1a\na"))
	if err := keepFileIn(filepath.Dir(s.filePath(a.Hash)), a.Hash, a.Data); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * fileGrace)
	os.Chtimes(s.filePath(a.Hash), old, old)
	if err := keepFileIn(filepath.Dir(s.filePath(a.Hash)), a.Hash, a.Data); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.collectFiles(time.Now()); n != 0 {
		t.Error("a file reused just now was collected")
	}
}
