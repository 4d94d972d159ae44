package stream

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/phasechat/phasechat/stream/wire"
)

func TestParseEvent(t *testing.T) {
	tests := []struct {
		name, raw string
		want      wire.Frame
		ok        bool
	}{
		{"data", "data: {}", wire.Frame{Data: "{}"}, true},
		{"no space after the colon", "data:{}", wire.Frame{Data: "{}"}, true},
		{"only one space is removed", "data:  x ", wire.Frame{Data: " x "}, true},
		{"multi-line data joined with LF", "data: a\ndata: b\ndata:\ndata: c", wire.Frame{Data: "a\nb\n\nc"}, true},
		{"CRLF lines", "event: error\r\ndata: a\r\ndata: b", wire.Frame{Event: "error", Data: "a\nb"}, true},
		{"CR lines", "event: e\rdata: a\rdata: b", wire.Frame{Event: "e", Data: "a\nb"}, true},
		{"mixed endings", "data: a\r\ndata: b\rdata: c\n", wire.Frame{Data: "a\nb\nc"}, true},
		{"comments are skipped", ": OPENROUTER PROCESSING\ndata: x\n: keep-alive", wire.Frame{Data: "x"}, true},
		{"comment only", ": keep-alive", wire.Frame{}, false},
		{"event without data is not dispatched", "event: ping", wire.Frame{}, false},
		{"empty", "", wire.Frame{}, false},
		{"field without colon has an empty value", "data", wire.Frame{Data: ""}, true},
		{"empty data line", "data:", wire.Frame{Data: ""}, true},
		{"id and retry are ignored", "id: 7\nretry: 10\ndata: x", wire.Frame{Data: "x"}, true},
		{"unknown fields are ignored", "foo: bar\ndata: x", wire.Frame{Data: "x"}, true},
		{"field names are case-sensitive", "Data: x\ndata: y", wire.Frame{Data: "y"}, true},
		{"colon in the value", "data: {\"a\":\"b:c\"}", wire.Frame{Data: `{"a":"b:c"}`}, true},
		{"last event name wins", "event: a\nevent: b\ndata: x", wire.Frame{Event: "b", Data: "x"}, true},
		{"leading blank lines", "\n\ndata: x", wire.Frame{Data: "x"}, true},
	}
	t.Run("an empty line inside dispatches the event", func(t *testing.T) {
		raw := []byte("event: e\r\ndata: a\r\rdata: b")
		got, ok := parseEvent(raw)
		if got != (wire.Frame{Event: "e", Data: "a"}) || !ok || string(raw[len(firstEvent(raw)):]) != "data: b" {
			t.Errorf("got %+v %v, first event %q", got, ok, firstEvent(raw))
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseEvent([]byte(tt.raw))
			if got != tt.want || ok != tt.ok || len(firstEvent([]byte(tt.raw))) != len(tt.raw) {
				t.Errorf("parseEvent(%q) = %+v, %v; want %+v, %v", tt.raw, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// frames reads every frame of body through the framer.
func frames(t *testing.T, body io.Reader) ([]wire.Frame, *framer, error) {
	t.Helper()
	f := newFramer(body, nil)
	var out []wire.Frame
	for {
		fr, err := f.Next()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, f, err
		}
		out = append(out, fr)
	}
}

func TestFramerSplitsAnywhere(t *testing.T) {
	body := "\xEF\xBB\xBFdata: one\n\n: comment\n\nevent: error\r\ndata: two\r\n\r\ndata: a\rdata: b\r\r" +
		"event: x\r\n\rdata: no name\n\ndata: [DONE]\n\n"
	want := []wire.Frame{{Data: "one"}, {Event: "error", Data: "two"}, {Data: "a\nb"}, {Data: "no name"}, {Data: "[DONE]"}}
	readers := map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
		"data+EOF": iotest.DataErrReader,
	}
	for name, wrap := range readers {
		t.Run(name, func(t *testing.T) {
			got, f, err := frames(t, wrap(strings.NewReader(body)))
			if err != nil || !reflect.DeepEqual(got, want) || f.tail {
				t.Errorf("got %+v, tail %v, err %v; want %+v", got, f.tail, err, want)
			}
		})
	}
}

func TestFramerTail(t *testing.T) {
	t.Run("an unterminated last event at a clean EOF is kept and marked", func(t *testing.T) {
		got, f, err := frames(t, strings.NewReader("data: a\n\ndata: [DONE]"))
		if err != nil || !reflect.DeepEqual(got, []wire.Frame{{Data: "a"}, {Data: "[DONE]"}}) || !f.tail {
			t.Errorf("got %+v, tail %v, err %v", got, f.tail, err)
		}
	})
	t.Run("a last line without the blank line is unterminated too", func(t *testing.T) {
		_, f, _ := frames(t, strings.NewReader("data: a\n"))
		if !f.tail {
			t.Error("tail not detected")
		}
	})
	t.Run("an empty line of a lone CR at the end terminates the last event", func(t *testing.T) {
		got, f, err := frames(t, strings.NewReader("data: a\n\ndata: b\n\r"))
		if err != nil || !reflect.DeepEqual(got, []wire.Frame{{Data: "a"}, {Data: "b"}}) || f.tail {
			t.Errorf("got %+v, tail %v, err %v", got, f.tail, err)
		}
	})
	t.Run("a CR that ends the input ends its line", func(t *testing.T) {
		got, f, err := frames(t, iotest.OneByteReader(strings.NewReader("data: a\r")))
		if err != nil || !reflect.DeepEqual(got, []wire.Frame{{Data: "a"}}) || !f.tail {
			t.Errorf("got %+v, tail %v, err %v", got, f.tail, err)
		}
	})
	t.Run("a cut event after a read error is dropped and the error returned", func(t *testing.T) {
		cut := errors.New("connection reset")
		body := io.MultiReader(strings.NewReader("data: a\n\ndata: {\"choi"), iotest.ErrReader(cut))
		got, _, err := frames(t, body)
		if !errors.Is(err, cut) || !reflect.DeepEqual(got, []wire.Frame{{Data: "a"}}) {
			t.Errorf("got %+v, err %v", got, err)
		}
	})
	t.Run("a terminated last event before a read error is kept", func(t *testing.T) {
		cut := errors.New("connection reset")
		got, _, err := frames(t, io.MultiReader(strings.NewReader("data: a\n\n"), iotest.ErrReader(cut)))
		if !errors.Is(err, cut) || !reflect.DeepEqual(got, []wire.Frame{{Data: "a"}}) {
			t.Errorf("got %+v, err %v", got, err)
		}
	})
}

func TestFramerCopiesFrameBytes(t *testing.T) {
	// Many small events through a reader that reuses the scanner's buffer: every frame must
	// still read what was sent.
	var body bytes.Buffer
	var want []wire.Frame
	for i := range 500 {
		d := strings.Repeat(string(rune('a'+i%26)), 1+i%40)
		body.WriteString("data: " + d + "\n\n")
		want = append(want, wire.Frame{Data: d})
	}
	got, _, err := frames(t, iotest.HalfReader(&body))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("frames differ (err %v)", err)
	}
}

func TestFramerFrameLimit(t *testing.T) {
	big := "data: " + strings.Repeat("x", MaxFrameSize) + "\n\n"
	_, _, err := frames(t, strings.NewReader("data: ok\n\n"+big+"data: after\n\n"))
	if !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("err = %v, want ErrFrameTooLarge", err)
	}
	justUnder := "data: " + strings.Repeat("x", MaxFrameSize-16) + "\n\n"
	got, _, err := frames(t, strings.NewReader(justUnder))
	if err != nil || len(got) != 1 || len(got[0].Data) != MaxFrameSize-16 {
		t.Fatalf("an event just under the limit: %d frames, err %v", len(got), err)
	}
}

// pacedSizes records the size of every read the framer asks for.
type pacedSizes struct {
	r     io.Reader
	sizes []int
}

func (p *pacedSizes) Read(b []byte) (int, error) {
	p.sizes = append(p.sizes, len(b))
	return p.r.Read(b)
}

func TestPacedReadsGrowWithTheEvent(t *testing.T) {
	small := strings.Repeat("data: {\"x\":1}\n\n", 100)
	rec := &pacedSizes{r: strings.NewReader(small)}
	frames(t, rec)
	for _, n := range rec.sizes {
		if n > minRead {
			t.Fatalf("a read of %d bytes between small events; want at most %d", n, minRead)
		}
	}
	big := "data: " + strings.Repeat("y", 1<<20) + "\n\n"
	rec = &pacedSizes{r: strings.NewReader(big)}
	got, _, _ := frames(t, rec)
	if len(got) != 1 || len(rec.sizes) > 40 {
		t.Fatalf("a 1 MiB event took %d reads (%d frames); want geometric growth", len(rec.sizes), len(got))
	}
}
