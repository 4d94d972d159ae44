package sessionlog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// The writer keeps a record's files (its KeepFilesWith hook) before the line naming them is
// written, and writes the lines after it after it: the log never names a file not kept yet. A
// failure to keep is told to OnError and the line is written all the same.
func TestFilesAreKeptBeforeTheLineNamingThem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	var (
		mu   sync.Mutex
		seen []string // the log as it was each time files were kept
		told []error
	)
	w.KeepFilesWith(func(r chat.Record) error {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
		}
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, string(b))
		return errors.New("the disk is full")
	})
	w.OnError(func(err error) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, err)
	})
	w.Add(userRecord("first"))
	w.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("with a file"),
		Attachments: []wire.Attachment{{Name: "notes.txt", Kind: wire.AttachText, Hash: strings.Repeat("a", 64), Size: 2, Data: []byte("hi")}}}})
	w.Add(userRecord("after"))
	closeLog(t, w)
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || !strings.Contains(seen[0], `"first"`) || strings.Contains(seen[0], "with a file") {
		t.Fatalf("the files were kept when the log held %q", seen)
	}
	if len(told) != 1 || told[0].Error() != "the disk is full" {
		t.Fatalf("told %v", told)
	}
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range log.Messages {
		got = append(got, m.Text())
	}
	if strings.Join(got, "|") != "first|with a file|after" {
		t.Fatalf("the log reads %q", got)
	}
}
