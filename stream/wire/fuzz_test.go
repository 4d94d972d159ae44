package wire

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// FuzzDecode runs an SSE body through the Chat Completions pipeline (framing by the reference
// rule, which FuzzFramer holds the real framer to; classification, decoding, reassembly) and
// checks what must always hold, with the text kept or left to the caller.
func FuzzDecode(f *testing.F) {
	for _, sc := range equivalenceScenarios {
		f.Add([]byte(sc.SSE))
	}
	f.Add([]byte(seed004))
	for _, dir := range []string{filepath.Join("..", "..", "..", "shared", "corpus"), "/work/shared/corpus"} {
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
		ups, res := decodeBody(WireChat, string(body))
		checkInvariants(t, ups, res)
		checkLeftTextChangesNoUpdate(t, WireChat, body, ups)
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
	if content.String() != res.Message.Text() || reasoning.String() != res.Message.Reasoning() {
		t.Fatalf("content %q / reasoning %q are not their deltas %q / %q", res.Message.Text(), res.Message.Reasoning(), content.String(), reasoning.String())
	}
	if err := callOrderError(ups...); err != nil {
		t.Fatal(err)
	}
	total := 0
	byID := map[string]ToolCall{}
	for _, tc := range res.Message.Calls() {
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
