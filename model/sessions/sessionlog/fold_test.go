package sessionlog

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// writeSteps adds n random records of requests (streamed text and reasoning, calls, their
// runs and results, final replies, new conversations, usage) to w, syncing now and then so
// that live records reach the file before what supersedes them.
func writeSteps(t *testing.T, w *Writer, r *rand.Rand, n int) {
	t.Helper()
	for i := range n {
		id := fmt.Sprintf("c%d", r.IntN(3))
		switch r.IntN(12) {
		case 0:
			w.Add(userRecord(fmt.Sprintf("question %d", i)))
		case 1:
			w.Add(liveRec(chat.Live{What: chat.LiveBegin}))
		case 2, 3:
			w.Add(liveRec(chat.Live{What: chat.LiveText, Text: fmt.Sprintf("text %d. ", i)}))
		case 4:
			w.Add(liveRec(chat.Live{What: chat.LiveReasoning, Text: fmt.Sprintf("thought %d. ", i)}))
		case 5:
			w.Add(liveRec(chat.Live{What: chat.LiveCall, ID: id, Name: "read", Args: "{}"}))
		case 6:
			w.Add(liveRec(chat.Live{What: chat.LiveRun, ID: id, Name: "read"}))
		case 7:
			w.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts(fmt.Sprintf("final %d", i))}})
		case 8:
			w.Add(chat.Record{Usage: &wire.Usage{PromptTokens: i, CompletionTokens: 1, TotalTokens: i + 1}})
		case 9:
			if r.IntN(4) == 0 {
				w.Head(Header{Model: "m", New: true})
			} else {
				w.Add(liveRec(chat.Live{What: chat.LiveResult, ID: id, Name: "read", Text: "out"}))
			}
		case 10:
			if err := w.Sync(); err != nil {
				t.Fatal(err)
			}
		case 11:
			w.Add(chat.Record{Compaction: &chat.Compaction{Summary: fmt.Sprintf("summary %d", i), Turns: 1}})
		}
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
}

// readBytes reads a log held in memory.
func readBytes(t *testing.T, b []byte) Log {
	t.Helper()
	log, err := decode(bytes.NewReader(b), "log")
	if err != nil {
		t.Fatal(err)
	}
	return log
}

// Folding never changes what a log reads as: a log closed cleanly reads as it did before its
// close took out the live records it passes over, including after a crash left a request in
// flight before it; and what was there before the writer opened it is left byte for byte.
func TestFoldingKeepsWhatTheLogReadsAs(t *testing.T) {
	dir := t.TempDir()
	for seed := range 40 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		crashed := filepath.Join(dir, fmt.Sprintf("crashed-%d.jsonl", seed))
		first := create(t, crashed)
		first.Head(Header{Model: "m"})
		writeSteps(t, first, r, r.IntN(12))
		before, err := os.ReadFile(crashed) // what a crash here leaves
		if err != nil {
			t.Fatal(err)
		}
		closeLog(t, first)
		path := filepath.Join(dir, fmt.Sprintf("resumed-%d.jsonl", seed))
		if err := os.WriteFile(path, before, 0o600); err != nil {
			t.Fatal(err)
		}
		w := create(t, path)
		w.Head(Header{Model: "m"})
		writeSteps(t, w, r, 5+r.IntN(30))
		unfolded, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		closeLog(t, w)
		folded, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(folded, before) || len(folded) > len(unfolded) {
			t.Fatalf("seed %d: the fold changed what it did not write, or grew the log:\n%s\n--- folded:\n%s", seed, unfolded, folded)
		}
		want, got := readBytes(t, unfolded), readBytes(t, folded)
		want.Started, got.Started = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: folded, the log reads\n%+v\nnot\n%+v\n--- unfolded:\n%s\n--- folded:\n%s", seed, got, want, unfolded, folded)
		}
	}
}

// A reply streamed long enough to be written as it came leaves no live record in a log
// closed cleanly.
func TestACleanCloseFoldsTheLiveRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	w.Add(userRecord("hi"))
	w.Add(liveRec(chat.Live{What: chat.LiveBegin}))
	w.Add(liveRec(chat.Live{What: chat.LiveText, Text: "Hello "}))
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	w.Add(liveRec(chat.Live{What: chat.LiveText, Text: "there."}))
	w.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("Hello there.")}})
	closeLog(t, w)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(`"type":"live"`)) {
		t.Fatalf("live records left:\n%s", b)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if m := readBytes(t, b).Messages; roles(m) != "user,assistant" || m[1].Text() != "Hello there." {
		t.Fatalf("%+v", m)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) > 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// A file the user named is only ever appended to: a session that a log of the sessions
// folder would fold leaves it the same file (a reader holding it open, such as tail -f, and a
// path through a linked folder see every line), with every line written.
func TestAnAppendedLogKeepsItsFileAndEveryLine(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "linked")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	path := filepath.Join(dir, "linked", "log.jsonl")
	w, err := Append(path)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	follower, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer follower.Close()
	w.Add(userRecord("hi"))
	w.Add(liveRec(chat.Live{What: chat.LiveBegin}))
	w.Add(liveRec(chat.Live{What: chat.LiveText, Text: "Hello "}))
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	w.Add(liveRec(chat.Live{What: chat.LiveText, Text: "there."}))
	w.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("Hello there.")}})
	closeLog(t, w)
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Fatal("the log was replaced by another file")
	}
	if fi, err := os.Lstat(filepath.Join(dir, "linked")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the linked folder is no longer a link: %v %v", fi, err)
	}
	seen, err := io.ReadAll(follower)
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(seen, onDisk) || !bytes.Contains(seen, []byte(`"type":"live"`)) {
		t.Fatalf("the reader holding the file saw\n%s\nthe path holds\n%s", seen, onDisk)
	}
	if m := readBytes(t, onDisk).Messages; roles(m) != "user,assistant" || m[1].Text() != "Hello there." {
		t.Fatalf("%+v", m)
	}
}
