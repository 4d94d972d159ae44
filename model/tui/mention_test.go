package tui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// manyFiles is a file list of n paths that hold the query "no" only scattered, after five
// whose names start with it: the best five stay the same however long the list is.
func manyFiles(n int) []string {
	paths := []string{"no1.txt", "no2.txt", "no3.txt", "no4.txt", "no5.txt"}
	for i := range n {
		paths = append(paths, fmt.Sprintf("src/pkg%d/xnxo%d.go", i%100, i))
	}
	return paths
}

// mentionHarness is a model with a mention of "no" open and files listed.
func mentionHarness(t testing.TB, files []string) *harness {
	h := newHarness(t, "text", 100, 20)
	h.m.files = fakeFiles{}
	h.typeText("read @no")
	takeNext[filesListed](h)
	h.send(filesListed{paths: files})
	return h
}

// The completions a mention shows are ranked when the mention changes, not when the screen is
// drawn: a View after a message that leaves the composer alone (a stream delta) costs the same
// whether the file list is short or long. Ranking 20,005 names would allocate hundreds of KB
// (a candidate for each); the bytes are compared, since the count of allocations a ranking
// makes does not grow with the list.
func TestViewDoesNotRankTheFileList(t *testing.T) {
	perView := func(files []string) uint64 {
		h := mentionHarness(t, files)
		if note := h.status(); !strings.HasPrefix(note, "no1.txt  no2.txt  no3.txt  no4.txt  no5.txt") {
			t.Fatalf("the completions: %q", note)
		}
		h.m.gen++
		h.m.View()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 20 {
			h.m.gen++ // what any message does
			h.m.View()
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 20
	}
	short, long := perView(manyFiles(0)), perView(manyFiles(20000))
	if long > short+8<<10 {
		t.Errorf("a View allocates %d bytes with 20005 files listed, %d with 5", long, short)
	}
}

// BenchmarkViewWithAMentionOpen: drawing the screen while a mention is open, 20005 files listed.
func BenchmarkViewWithAMentionOpen(b *testing.B) {
	h := mentionHarness(b, manyFiles(20000))
	b.ReportAllocs()
	for b.Loop() {
		h.m.gen++
		h.m.View()
	}
}
