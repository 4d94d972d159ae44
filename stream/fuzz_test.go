package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/phasechat/phasechat/phase"
)

// referenceFrames frames a whole SSE body the plain way, straight from the spec: strip a BOM,
// split lines on CRLF, CR or LF, dispatch at each empty line; an unterminated last event is
// kept (as the framer keeps it at a clean EOF).
func referenceFrames(body string) []Frame {
	body = strings.TrimPrefix(body, "\uFEFF")
	body = strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n")
	var (
		out   []Frame
		cur   Frame
		data  []string
		dirty bool
	)
	dispatch := func() {
		if data != nil {
			cur.Data = strings.Join(data, "\n")
			out = append(out, cur)
		}
		cur, data, dirty = Frame{}, nil, false
	}
	for _, line := range strings.Split(body, "\n") {
		switch {
		case line == "":
			if dirty {
				dispatch()
			}
			continue
		case line[0] == ':':
		default:
			name, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch name {
			case "data":
				data = append(data, value)
			case "event":
				cur.Event = value
			}
		}
		dirty = true
	}
	dispatch()
	return out
}

func FuzzParseEvent(f *testing.F) {
	for _, s := range []string{"data: x", "event: e\r\ndata: a\r\ndata: b", ": c\ndata", "data:x\r\rdata: y", "\xEF\xBB\xBFdata: x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok, rest := parseEvent(raw)
		if len(rest) > len(raw) {
			t.Fatalf("rest longer than the input")
		}
		if strings.ContainsAny(got.Event, "\r\n") || strings.Contains(got.Data, "\r") {
			t.Fatalf("line endings leaked into %+v", got)
		}
		// The first event of raw is the reference's first event (BOM aside: parseEvent never
		// sees the stream's first bytes).
		if bytes.HasPrefix(raw, []byte("\uFEFF")) {
			return
		}
		consumed := string(raw[:len(raw)-len(rest)])
		ref := referenceFrames(consumed + "\n\n")
		if ok != (len(ref) == 1) || ok && ref[0] != got || len(ref) > 1 {
			t.Fatalf("parseEvent(%q) = %+v %v (rest %q); reference %+v", raw, got, ok, rest, ref)
		}
	})
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

// FuzzDecode runs an SSE body through the whole pipeline (framing, classification, decoding,
// reassembly) and checks what must always hold.
func FuzzDecode(f *testing.F) {
	for _, sc := range equivalenceScenarios {
		f.Add([]byte(sc.sse))
	}
	f.Add([]byte(seed004))
	for _, dir := range []string{filepath.Join("..", "..", "shared", "corpus"), "/work/shared/corpus"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*", "*.sse"))
		for _, p := range paths { // the recordings, when present, are seeds too (never copied in)
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
		if len(paths) > 0 {
			break
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fd := newFeed(bytes.NewReader(body), "text/event-stream", nil, func(err error) error {
			if err == io.EOF {
				return nil
			}
			return err
		})
		fd.wire = WireChat // the Chat Completions decoder (the other formats have their own targets)
		var ups []Update
		for u, ok := fd.next(); ok; u, ok = fd.next() {
			ups = append(ups, u)
		}
		checkInvariants(t, ups, fd.Result())
	})
}

// checkInvariants holds for every stream: one End update, last; Content and Reasoning are
// the concatenations of their deltas; the CallEvents respect the machine's order and every
// argument text the machine saw is a prefix of the reply's; the phase agrees with the outcome;
// and the arguments of all calls together are exactly the argument fragments of all frames.
func checkInvariants(t *testing.T, ups []Update, res Result) {
	t.Helper()
	if len(ups) == 0 || ups[len(ups)-1].N != 0 {
		t.Fatalf("no End update last")
	}
	var content, reasoning strings.Builder
	fragments := 0
	for i, u := range ups {
		if u.N == 0 && i != len(ups)-1 {
			t.Fatalf("End update before the last")
		}
		for _, ev := range u.Events {
			switch ev.Kind {
			case phase.KindText:
				content.WriteString(ev.Delta)
			case phase.KindReasoning:
				reasoning.WriteString(ev.Delta)
			}
		}
		fragments += argumentBytes(u)
	}
	if content.String() != res.Message.Content || reasoning.String() != res.Message.Reasoning {
		t.Fatalf("content %q / reasoning %q are not their deltas %q / %q", res.Message.Content, res.Message.Reasoning, content.String(), reasoning.String())
	}
	if err := callOrderError(ups...); err != nil {
		t.Fatal(err)
	}
	total := 0
	byID := map[string]ToolCall{}
	for _, tc := range res.Message.ToolCalls {
		total += len(tc.Arguments)
		if _, dup := byID[tc.ID]; dup {
			t.Fatalf("two calls with id %q", tc.ID)
		}
		byID[tc.ID] = tc
	}
	if total != fragments {
		t.Fatalf("calls hold %d argument bytes, the frames sent %d", total, fragments)
	}
	st, m := fold(ups)
	for _, c := range m.List() {
		if !strings.HasPrefix(byID[c.ID].Arguments, c.ArgsText) {
			t.Fatalf("call %s: the machine saw %q, the reply has %q", c.ID, c.ArgsText, byID[c.ID].Arguments)
		}
	}
	want := map[Outcome]phase.Phase{OutcomeComplete: phase.Complete, OutcomeError: phase.Error, OutcomeTruncated: phase.Error}
	if st.Phase != want[res.Outcome] {
		t.Fatalf("phase %v, outcome %q", st.Phase, res.Outcome)
	}
}

// argumentBytes counts the argument text of choice 0's tool-call fragments in a frame the
// decoder used (a tool frame, or an error frame that is a chunk).
func argumentBytes(u Update) int {
	if u.Kind != KindTool && (u.Kind != KindError || u.Frame.Event == "error" || u.Frame.Event == "message_start") {
		return 0
	}
	var ch wireChunk
	if json.Unmarshal([]byte(u.Frame.Data), &ch) != nil && !json.Valid([]byte(u.Frame.Data)) {
		return 0
	}
	n := 0
	for _, c := range ch.Choices {
		if !c.Index.Set || c.Index.N == 0 {
			for _, tc := range c.Delta.ToolCalls {
				n += len(tc.Function.Arguments.Text)
			}
			if f, ok := c.Delta.legacyCall(); ok {
				n += len(f.Function.Arguments.Text)
			}
			break
		}
	}
	return n
}

// FuzzLexer checks the incremental lexer against encoding/json, whatever the fragmenting.
func FuzzLexer(f *testing.F) {
	for _, s := range lexerCases {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, step uint8) {
		var l lexer
		n := int(step%16) + 1
		for i := 0; i < len(text); i += n {
			l.Feed(text[i:min(len(text), i+n)])
		}
		valid := json.Valid([]byte(text))
		if l.Closed() != valid {
			t.Fatalf("%q: closed %v, json.Valid %v", text, l.Closed(), valid)
		}
		if l.Invalid() && valid {
			t.Fatalf("%q: latched invalid but valid", text)
		}
	})
}
