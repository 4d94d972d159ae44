package sessionlog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

func TestMain(m *testing.M) {
	testwait.VerifyTestMain(m) // Close ends the writer's goroutine
}

func userRecord(text string) chat.Record {
	return chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts(text)}}
}

// createNow opens the log at path at once, as the writer Later makes opens it.
func createNow(path string) (*Writer, error) { return openWriter(path, true) }

func create(t *testing.T, path string) *Writer {
	t.Helper()
	w, err := createNow(path)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func closeLog(t *testing.T, w *Writer) {
	t.Helper()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// A log phasechat creates is its owner's alone; an existing file keeps the mode its owner gave it.
func TestOpeningRestrictsANewFileToItsOwner(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh.jsonl")
	old := filepath.Join(dir, "old.jsonl")
	if err := os.WriteFile(old, []byte(`{"type":"message","message":{"role":"user","content":"before"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{fresh: 0o600, old: 0o644} {
		w := create(t, path)
		w.Add(userRecord("hello"))
		closeLog(t, w)
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if mode := fi.Mode().Perm(); mode != want {
			t.Errorf("%s has mode %o, want %o", filepath.Base(path), mode, want)
		}
	}
	log, err := Read(old)
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Messages) != 2 || log.Messages[0].Text() != "before" || log.Messages[1].Text() != "hello" {
		t.Fatalf("the opening must append to an existing log: %+v", log.Messages)
	}
}

func TestOpeningNamesTheProblem(t *testing.T) {
	_, err := createNow(filepath.Join(t.TempDir(), "no such dir", "log.jsonl"))
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("cannot open the session log")) {
		t.Fatalf("error %v", err)
	}
}

// Records are written in the order Add was called, even when goroutines race to add them:
// each goroutine takes a ticket and adds under the same lock, so the tickets give the order
// of the Add calls.
func TestOrderIsKeptUnderConcurrentAdd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	const goroutines, each = 8, 200
	var mu sync.Mutex
	ticket := 0
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				mu.Lock()
				ticket++
				if ticket%3 == 0 {
					u := wire.Usage{TotalTokens: ticket}
					w.Add(chat.Record{Usage: &u})
				} else {
					w.Add(userRecord(strconv.Itoa(ticket)))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	closeLog(t, w)

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) != goroutines*each {
		t.Fatalf("%d lines, want %d", len(lines), goroutines*each)
	}
	for i, line := range lines {
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		want := i + 1
		got := -1
		switch {
		case rec.Type == "usage" && rec.Usage != nil:
			got = rec.Usage.TotalTokens
		case rec.Type == "message" && rec.Message != nil:
			got, _ = strconv.Atoi(rec.Message.Text())
		}
		if got != want {
			t.Fatalf("line %d holds record %d (%s)", i+1, got, line)
		}
	}
}

// Close writes everything queued before it returns.
func TestCloseFlushes(t *testing.T) {
	for _, n := range []int{0, 1, 1000} {
		path := filepath.Join(t.TempDir(), "log.jsonl")
		w := create(t, path)
		for i := 0; i < n; i++ {
			w.Add(userRecord(strconv.Itoa(i)))
		}
		closeLog(t, w)
		log, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(log.Messages) != n {
			t.Fatalf("%d of %d records were written before Close returned", len(log.Messages), n)
		}
		for i, m := range log.Messages {
			if m.Text() != strconv.Itoa(i) {
				t.Fatalf("record %d is %q", i, m.Text())
			}
		}
	}
}

// A record that cannot be written is reported by Close, in words.
func TestCloseReportsAWriteError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	w.f.Close() // the disk went away
	w.Add(userRecord("lost"))
	err := w.Close()
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("cannot write the session log")) {
		t.Fatalf("Close = %v", err)
	}
}

func TestCloseTwiceAndAddAfterClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, err := createNow(path)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("kept")}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("dropped")}})
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	log, err := Read(path)
	if err != nil || len(log.Messages) != 1 || log.Messages[0].Text() != "kept" {
		t.Fatalf("log %+v, err %v", log, err)
	}
}
