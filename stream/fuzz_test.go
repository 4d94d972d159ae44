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
		if c.Index == nil || *c.Index == 0 {
			if c.Delta != nil {
				for _, tc := range c.Delta.ToolCalls {
					n += len(tc.Function.Arguments.Text)
				}
			}
			break
		}
	}
	return n
}

// argPieces are the argument fragments FuzzReassembly draws from (raw JSON values).
var argPieces = []string{`""`, `null`, `"{"`, `"}"`, `"{\"a\":"`, `"1"`, `"1}"`, `"[1,"`, `"2]"`, `"\"s\""`,
	`" "`, `"{}"`, `{"k":[1,2]}`, `3`, `"tr"`, `"ue"`, `"{\"q\":\"x\"}"`, `"]"`, `","`, `"\\u00e9"`}

// FuzzReassembly builds a stream from a program of 4-byte operations (tool-call fragments
// with or without index, id and name; content; reasoning; finish_reason; usage; malformed and
// error frames), so the fuzzer explores the routing rules rather than JSON syntax. Besides the
// invariants of checkInvariants, when every fragment carries an index and no id, each call's
// arguments must be exactly the concatenation of its index's fragments.
func FuzzReassembly(f *testing.F) {
	f.Add([]byte{0, 1, 5, 4, 0, 1, 0, 6, 1, 2, 9, 11, 6, 0, 0, 0})
	f.Add([]byte{1, 0, 5, 16, 0, 0, 0, 0, 4, 0, 0, 1, 0, 0, 10, 12, 7, 0, 0, 0})
	f.Add([]byte{0, 2, 1, 4, 0, 3, 6, 11, 0, 2, 0, 6, 0, 3, 0, 5, 5, 0, 0, 1})
	f.Fuzz(func(t *testing.T, prog []byte) {
		var body strings.Builder
		want := map[int]string{} // index -> concatenated fragments
		indexedOnly := true
		for i := 0; i+4 <= len(prog); i += 4 {
			op, a, b, c := prog[i]%8, prog[i+1], prog[i+2], prog[i+3]
			var data string
			switch {
			case op < 4:
				index, id, name := int(a%4)-1, []string{"", "A", "B", "C"}[b%4], []string{"", "f", "g"}[b/4%3]
				args := argPieces[int(c)%len(argPieces)]
				data = tool(index, id, name, args)
				if index < 0 || id != "" {
					indexedOnly = false
				}
				want[index] += argText(args)
			case op == 4:
				data = delta(`{"content":` + []string{`""`, `"hi"`, `null`}[c%3] + `}`)
			case op == 5:
				data = delta(`{"reasoning_content":` + []string{`""`, `"hm"`, `null`}[c%3] + `}`)
			case op == 6:
				data = finishChunk([]string{"stop", "tool_calls", "length"}[c%3])
			default:
				data = []string{`{"choices":[],"usage":{"prompt_tokens":1}}`, `not json`, `{"error":{"message":"x"}}`}[c%3]
			}
			body.WriteString("data: " + data + "\n\n")
		}
		if len(prog)%2 == 0 {
			body.WriteString("data: [DONE]\n\n")
		}
		fd := newFeed(strings.NewReader(body.String()), "text/event-stream", nil, func(err error) error {
			if err == io.EOF {
				return nil
			}
			return err
		})
		var ups []Update
		for u, ok := fd.next(); ok; u, ok = fd.next() {
			ups = append(ups, u)
		}
		res := fd.Result()
		checkInvariants(t, ups, res)
		if !indexedOnly || hasErrorBefore(ups) {
			return
		}
		got := map[int]string{}
		for _, tc := range res.Message.ToolCalls {
			got[tc.Index] = tc.Arguments
		}
		for index, args := range want {
			if got[index] != args {
				t.Fatalf("call %d: arguments %q, fragments %q", index, got[index], args)
			}
		}
	})
}

// argText is the text a raw arguments value contributes: a string's contents, nothing for
// null, else the JSON itself.
func argText(raw string) string {
	var a wireArgs
	a.UnmarshalJSON([]byte(raw))
	return a.Text
}

// hasErrorBefore reports an error frame that ended the stream before the program did.
func hasErrorBefore(ups []Update) bool {
	for _, u := range ups {
		if u.Kind == KindError && u.N != 0 {
			return true
		}
	}
	return false
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
