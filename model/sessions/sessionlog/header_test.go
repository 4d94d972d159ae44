package sessionlog

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestHeaderAndTimesAreRecorded: the header opens the log and reads back as Header, a later
// header (a resumed conversation) does not replace it, and every record carries the time it
// was queued.
func TestHeaderAndTimesAreRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	before := time.Now().UTC().Add(-time.Second)
	w := create(t, path)
	w.Head(Header{Model: "m1", Endpoint: "http://127.0.0.1:1/v1", System: "be brief"})
	w.Add(userRecord("hello"))
	w.Head(Header{Model: "m2"})
	w.Add(userRecord("again"))
	closeLog(t, w)

	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if log.Header == nil || *log.Header != (Header{Model: "m1", Endpoint: "http://127.0.0.1:1/v1", System: "be brief"}) {
		t.Fatalf("header = %+v, want the first one", log.Header)
	}
	if len(log.Messages) != 2 {
		t.Fatalf("messages = %+v, want the two user messages only", log.Messages)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Time == nil || rec.Time.Before(before) || rec.Time.After(time.Now().Add(time.Second)) {
			t.Errorf("line %d has time %v, want the time it was written", n, rec.Time)
		}
	}
}

// TestHeaderWithoutSessionIsRejected: a "session" line must carry its header.
func TestHeaderWithoutSessionIsRejected(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(`{"type":"session"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	log, err := Read(path)
	if err != nil || log.Header != nil || !reflect.DeepEqual(log.Skipped, []int{1}) {
		t.Fatalf("Read: %v, header %+v, skipped %v; want the line skipped", err, log.Header, log.Skipped)
	}
}
