package secret

import (
	"strings"
	"testing"
)

var benchText = strings.Repeat("The quick brown fox jumps over the lazy dog; sk-not-the-key. ", 16<<10) // ~1 MiB

func benchSet() *Set {
	s := New("sk-live-0123456789abcdef", "tok")
	s.AddHeader("Bearer hdr-value-0123456789")
	s.AddURL("https://u:pa55w0rd-xyz@example.com/v1?api-key=qk-123456789")
	return s
}

func BenchmarkRedact1MiB(b *testing.B) {
	s := benchSet()
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		s.Redact(benchText)
	}
}

func BenchmarkStreamDeltas(b *testing.B) {
	s := benchSet()
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		st := s.Stream()
		for i := 0; i < len(benchText); i += 8 {
			st.Write(benchText[i:min(i+8, len(benchText))])
		}
		st.Flush()
	}
}
