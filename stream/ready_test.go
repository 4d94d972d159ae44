package stream

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// countingReader counts the reads of its input, to show what never touches it.
type countingReader struct {
	r     io.Reader
	reads int
}

func (c *countingReader) Read(b []byte) (int, error) {
	c.reads++
	return c.r.Read(b)
}

// gate hands over only the bytes the test has let through; a read with nothing let through is
// a read that would block on a live connection, and fails the test.
type gate struct {
	t    *testing.T
	open []byte
}

func (g *gate) Read(b []byte) (int, error) {
	if len(g.open) == 0 {
		g.t.Fatal("read the body with nothing buffered: this read would wait for the server")
	}
	n := copy(b, g.open)
	g.open = g.open[n:]
	return n, nil
}

func TestFramerReadyOnlyForBufferedFrames(t *testing.T) {
	g := &gate{t: t, open: []byte("data: one\n\ndata: two\n\n: keep-alive\n\ndata: thr")}
	f := newFramer(g, nil)
	next := func(want string) {
		t.Helper()
		fr, err := f.Next()
		if err != nil || fr.Data != want {
			t.Fatalf("Next = %+v, %v; want data %q", fr, err, want)
		}
	}
	next("one")
	if !f.ready() {
		t.Fatal("not ready with a whole frame buffered")
	}
	next("two")
	if f.ready() {
		t.Fatal("ready with only a comment and half a frame buffered")
	}
	g.open = []byte("ee\r\n\r\n")
	next("three")
	if f.ready() {
		t.Fatal("ready with nothing buffered")
	}
}

func TestFeedReadyAtTheEnd(t *testing.T) {
	fd := newFeed(bytes.NewReader([]byte("data: "+delta(`{"content":"hi"}`)+"\n\ndata: [DONE]\n\n")), "text/event-stream", nil, eofIsClean)
	var kinds []wire.Kind
	for {
		u, ok := fd.next()
		if !ok {
			break
		}
		kinds = append(kinds, u.Kind)
		if !fd.ready() {
			t.Fatalf("not ready after update %d of a body read to its end", len(kinds))
		}
	}
	if len(kinds) != 3 {
		t.Fatalf("updates %v; want text, done and the end", kinds)
	}
}

func eofIsClean(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

// FuzzFramerReady: asking ready before every Next changes no frame, and neither ready nor a
// Next it answered true for ever reads the input (which on a live connection could wait).
func FuzzFramerReady(f *testing.F) {
	f.Add([]byte("data: a\n\ndata: b\r\n\r\nevent: error\rdata: c\r\r: k\n\ndata: [DONE]"), uint8(1))
	f.Add([]byte("\xEF\xBB\xBFdata: x\r\n\rdata: y\n\r\n\n\ndata:z"), uint8(3))
	f.Add([]byte("data: x\r\n\ndata: y\n\r\ndata: z\r\r"), uint8(7))
	f.Fuzz(func(t *testing.T, body []byte, piece uint8) {
		want := referenceFrames(string(body))
		in := &countingReader{r: &pieces{body: body, n: int(piece%64) + 1}}
		fr := newFramer(in, nil)
		var got []wire.Frame
		for {
			before := in.reads
			ready := fr.ready()
			if in.reads != before {
				t.Fatal("ready read the input")
			}
			frame, err := fr.Next()
			if ready && in.reads != before {
				t.Fatal("Next read the input after ready said a frame was buffered")
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, frame)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("body %q in pieces of %d:\nwith ready %q\nreference  %q", body, piece%64+1, got, want)
		}
	})
}

// Over a real connection, Ready is false before the request is sent, true once an update is
// buffered behind the one Next returned, and the updates read with it are those read without.
func TestStreamReadyOverHTTP(t *testing.T) {
	body := "data: " + delta(`{"content":"a"}`) + "\n\ndata: " + delta(`{"content":"b"}`) + "\n\ndata: [DONE]\n\n"
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
	})
	s := c.Stream(context.Background(), wire.Request{})
	defer s.Close()
	if s.Ready() {
		t.Fatal("ready before the request was sent")
	}
	var text string
	for u, ok := s.Next(); ok; u, ok = s.Next() {
		for _, ev := range u.Events {
			text += ev.Delta
		}
		if u.N != 0 && !s.Ready() {
			t.Fatalf("not ready after frame %d of a body written at once and read to its end", u.N)
		}
	}
	if text != "ab" || s.Result().Outcome != wire.OutcomeComplete {
		t.Fatalf("text %q, outcome %q", text, s.Result().Outcome)
	}
}
