package sessions

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkList10000 lists a store of 10,000 sessions: only the index is read.
func BenchmarkList10000(b *testing.B) {
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
	b.ReportAllocs()
	for b.Loop() {
		got, err := s.List()
		if err != nil || len(got) != 10000 {
			b.Fatal(len(got), err)
		}
	}
}
