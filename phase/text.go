package phase

import "unsafe"

// Text is an append-only string whose versions share storage. Appending to the newest version
// costs amortised O(len(delta)); appending to an older version copies it first, so every
// version always reads what it read before. Bytes below a version's length are never written
// again, which is what lets String return them without copying.
type Text struct {
	b   []byte
	tip *int // length of the newest version sharing b's array
}

// Append returns t followed by s.
func (t Text) Append(s string) Text {
	if s == "" {
		return t
	}
	if t.tip == nil || *t.tip != len(t.b) || cap(t.b)-len(t.b) < len(s) {
		grown := make([]byte, len(t.b), grownCap(len(t.b)+len(s)))
		copy(grown, t.b)
		t.b, t.tip = grown, new(int)
	}
	t.b = append(t.b, s...)
	*t.tip = len(t.b)
	return t
}

// bigText is the length past which a Text grows by a quarter instead of doubling: a Text
// never holds more than bigText or a quarter more than its length, whichever is larger (P5 in
// docs/architecture.md, Performance), and appending stays amortised O(len(delta)).
const bigText = 256 << 10

// grownCap is the capacity a Text of n bytes grows to.
func grownCap(n int) int {
	return min(2*n+16, max(n+n/4, bigText))
}

// String returns the text without copying it.
func (t Text) String() string {
	if len(t.b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(t.b), len(t.b))
}

// Len is the length in bytes.
func (t Text) Len() int { return len(t.b) }
