package tools

import (
	"fmt"
	"unicode/utf8"
)

// DefaultMaxOutput is the cap on a command tool's captured output when Registry.MaxOutput is 0:
// half of it is kept from the start and half from the end.
const DefaultMaxOutput = 32 << 10

// headTail is an io.Writer that keeps the first headCap and the last tailCap bytes written to it
// and counts the rest. Its memory is bounded by headCap+tailCap however much is written.
// Not safe for concurrent use; exec gives it a single writer goroutine.
type headTail struct {
	head    []byte
	tail    []byte // a ring of tailCap bytes once full; next is where the oldest byte sits
	next    int
	headCap int
	tailCap int
	total   int64
}

func newHeadTail(limit int) *headTail {
	if limit < 2 {
		limit = 2
	}
	return &headTail{headCap: limit / 2, tailCap: limit - limit/2}
}

func (w *headTail) Write(p []byte) (int, error) {
	n := len(p)
	w.total += int64(n)
	if room := w.headCap - len(w.head); room > 0 {
		take := min(room, len(p))
		w.head = append(w.head, p[:take]...)
		p = p[take:]
	}
	if len(p) >= w.tailCap {
		w.tail = append(w.tail[:0], p[len(p)-w.tailCap:]...)
		w.next = 0
		return n, nil
	}
	for len(p) > 0 {
		if len(w.tail) < w.tailCap {
			take := min(w.tailCap-len(w.tail), len(p))
			w.tail = append(w.tail, p[:take]...)
			p = p[take:]
			continue
		}
		c := copy(w.tail[w.next:], p)
		w.next = (w.next + c) % w.tailCap
		p = p[c:]
	}
	return n, nil
}

// String returns everything written when it fit, else the head and the tail, each cut on a
// UTF-8 rune boundary, around a marker that says how many bytes were left out.
func (w *headTail) String() string {
	tail := append(append([]byte(nil), w.tail[w.next:]...), w.tail[:w.next]...)
	if w.total <= int64(w.headCap+w.tailCap) {
		return string(w.head) + string(tail)
	}
	head := trimPartialRuneEnd(w.head)
	tail = trimPartialRuneStart(tail)
	omitted := w.total - int64(len(head)) - int64(len(tail))
	return fmt.Sprintf("%s\n… [%d bytes omitted] …\n%s", head, omitted, tail)
}

// capText applies the head-and-tail cap of headTail to s.
func capText(s string, limit int) string {
	w := newHeadTail(limit)
	w.Write([]byte(s))
	return w.String()
}

// trimPartialRuneEnd drops the bytes of a rune cut off at the end of b.
func trimPartialRuneEnd(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// trimPartialRuneStart drops the continuation bytes (at most UTFMax-1) of a rune whose start
// was cut off before b.
func trimPartialRuneStart(b []byte) []byte {
	i := 0
	for i < len(b) && i < utf8.UTFMax-1 && !utf8.RuneStart(b[i]) {
		i++
	}
	return b[i:]
}

// truncateRunes returns s cut to at most n runes (n >= 1), the last being "…" when something
// was cut.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n-1 {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// truncateBytes returns s cut on a rune boundary to at most n bytes, ending in "…" when cut.
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return string(trimPartialRuneEnd([]byte(s[:n]))) + "…"
}
