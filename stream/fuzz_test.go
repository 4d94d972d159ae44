package stream

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func FuzzParseEvent(f *testing.F) {
	for _, s := range []string{"data: x", "event: e\r\ndata: a\r\ndata: b", ": c\ndata", "data:x\r\rdata: y", "\xEF\xBB\xBFdata: x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := parseEvent(raw)
		first := firstEvent(raw)
		if again, okAgain := parseEvent(first); again != got || okAgain != ok {
			t.Fatalf("parseEvent(%q) = %+v %v, but of its first event %q = %+v %v", raw, got, ok, first, again, okAgain)
		}
		if strings.ContainsAny(got.Event, "\r\n") || strings.Contains(got.Data, "\r") {
			t.Fatalf("line endings leaked into %+v", got)
		}
		// The first event of raw is the reference's first event (BOM aside: parseEvent never
		// sees the stream's first bytes).
		if bytes.HasPrefix(raw, []byte("\uFEFF")) {
			return
		}
		ref := referenceFrames(string(first) + "\n\n")
		if ok != (len(ref) == 1) || ok && ref[0] != got || len(ref) > 1 {
			t.Fatalf("parseEvent(%q) = %+v %v (first event %q); reference %+v", raw, got, ok, first, ref)
		}
	})
}

// firstEvent is raw up to and including the empty line that ends its first event (all of raw
// when no empty line follows a line that is not).
func firstEvent(raw []byte) []byte {
	seen := false
	for i := 0; i < len(raw); {
		end, skip := lineEnd(raw[i:])
		switch {
		case end < 0:
			return raw
		case end == 0 && seen:
			return raw[:i+skip]
		}
		seen = seen || end > 0
		i += end + skip
	}
	return raw
}

func FuzzFramer(f *testing.F) {
	f.Add([]byte("data: a\n\ndata: b\r\n\r\nevent: error\rdata: c\r\r: k\n\ndata: [DONE]"), uint8(1))
	f.Add([]byte("\xEF\xBB\xBFdata: x\r\n\rdata: y\n\r\n\n\ndata:z"), uint8(3))
	f.Fuzz(func(t *testing.T, body []byte, piece uint8) {
		want := referenceFrames(string(body))
		var in io.Reader = bytes.NewReader(body)
		if piece%4 == 0 {
			in = iotest.OneByteReader(in)
		} else {
			in = &pieces{body: body, n: int(piece)}
		}
		got, _, err := frames(t, in)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("body %q in pieces of %d:\nframer    %q\nreference %q", body, piece, got, want)
		}
	})
}

// pieces reads body n bytes at a time.
type pieces struct {
	body []byte
	n    int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.body) == 0 {
		return 0, io.EOF
	}
	n := copy(b[:min(len(b), p.n)], p.body)
	p.body = p.body[n:]
	return n, nil
}
