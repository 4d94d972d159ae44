package sessions

import (
	"fmt"
	"testing"
	"time"
)

// store10000 is a store whose index holds 10,000 sessions (their logs are not needed).
func store10000(b *testing.B) *Store {
	s := openStore(b)
	all := make([]Meta, 10000)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range all {
		all[i] = Meta{ID: fmt.Sprintf("20260101-000000-%06x", i), Title: fmt.Sprintf("A conversation about topic number %d and more", i),
			Provider: "api.openai.com", Model: "gpt-4o-mini", Created: t0.Add(time.Duration(i) * time.Minute), Updated: t0.Add(time.Duration(i) * time.Hour), Turns: i % 40, Size: int64(i * 100)}
	}
	if err := s.writeIndex(all); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkList10000 lists a store of 10,000 sessions: only the index is read.
func BenchmarkList10000(b *testing.B) {
	s := store10000(b)
	b.ReportAllocs()
	for b.Loop() {
		got, err := s.List()
		if err != nil || len(got) != 10000 {
			b.Fatal(len(got), err)
		}
	}
}

// BenchmarkRename10000 is one locked read-modify-write of a 10,000-entry index, as every
// recorded message batch and every rename does.
func BenchmarkRename10000(b *testing.B) {
	s := store10000(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Rename("20260101-000000-000001", "a new title"); err != nil {
			b.Fatal(err)
		}
	}
}
