package tools

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// The watcher hands over the cleaned last three lines, at most once per watchEvery, keeping
// no more than watchKeep bytes however much is written.
func TestTailWatchBoundsWhatAndHowOften(t *testing.T) {
	var got []string
	clock := time.Unix(0, 0)
	w := &tailWatch{watch: func(s string) { got = append(got, s) }, clean: cleanStub, now: func() time.Time { return clock }}
	for _, step := range []struct {
		write   string
		advance time.Duration
		calls   int
		last    string
	}{
		{"one\n", 0, 1, "one"},
		{"two\n", watchEvery / 2, 1, "one"}, // too soon: not handed over
		{"three\nfour\x1b[2J\n", watchEvery, 2, "two\nthree\nfour␛[2J"},
		{strings.Repeat("x", 3*watchKeep) + "\ntail", watchEvery, 3, strings.Repeat("x", watchKeep-5) + "\ntail"},
	} {
		clock = clock.Add(step.advance)
		if _, err := w.Write([]byte(step.write)); err != nil {
			t.Fatal(err)
		}
		if len(got) != step.calls || got[len(got)-1] != step.last {
			t.Fatalf("after %q: %d calls, last %q; want %d, %q", step.write[:min(20, len(step.write))], len(got), got[len(got)-1][:min(40, len(got[len(got)-1]))], step.calls, step.last[:min(40, len(step.last))])
		}
		if len(w.buf) > watchKeep {
			t.Fatalf("keeps %d bytes", len(w.buf))
		}
	}
}

// A command tool run watched reports its output as it prints, and its result is the same as
// an unwatched run's.
func TestRunWatchedReportsOutputAsItPrints(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "ticker", `for i in 1 2 3 4 5; do echo "tick $i"; sleep 0.05; done`, "10s", false)
	var mu sync.Mutex
	var seen []string
	res := r.RunWatched(context.Background(), Call{ID: "c1", Name: "ticker", Arguments: "{}"}, func(s string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, s)
	})
	if res.IsError || !strings.Contains(res.Output, "tick 5") {
		t.Fatalf("result %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || !strings.HasPrefix(seen[0], "tick 1") {
		t.Fatalf("watched %q", seen)
	}
	for _, s := range seen {
		if strings.Count(s, "\n") >= watchLines {
			t.Fatalf("handed over more than %d lines: %q", watchLines, s)
		}
	}
}
