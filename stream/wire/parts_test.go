package wire

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/phase"
)

var (
	call1 = ToolCall{Index: 0, ID: "c1", Name: "weather", Arguments: `{"city":"Rome"}`}
	call2 = ToolCall{Index: 1, ID: "c2", Name: "time", Arguments: ``}
)

// ordered is toolLoop with its reply's parts given.
func ordered(native *NativeReasoning, parts ...Part) []Message {
	msgs := toolLoop(native)
	msgs[1].Parts = parts
	return msgs
}

// The order of a reply's parts is display data: a Chat Completions or Responses body does
// not depend on it, an Anthropic body only orders its blocks by it (see
// TestAnthropicRequestSendsBlocksInStreamOrder). Nor does why a resumed reply ended.
func TestRequestBodiesNeverCarryCardsPlaces(t *testing.T) {
	bodies := map[string]func(Request) ([]byte, error){
		"chat":      func(r Request) ([]byte, error) { return r.body(true, true, true, nil) },
		"responses": func(r Request) ([]byte, error) { return responsesRequest(r, true, nil) },
		"anthropic, each block": func(r Request) ([]byte, error) {
			body, err := anthropicRequest(r, true, nil)
			if err != nil {
				return nil, err
			}
			var req struct {
				Messages []struct {
					Role    string
					Content []map[string]any
				}
			}
			if err := json.Unmarshal(body, &req); err != nil {
				return nil, err
			}
			var blocks []string
			text := ""
			for _, m := range req.Messages {
				for _, b := range m.Content {
					if s, ok := b["text"].(string); ok && m.Role == "assistant" {
						text += s // the text whole, wherever it was split
						continue
					}
					j, _ := json.Marshal(b)
					blocks = append(blocks, string(j))
				}
			}
			sort.Strings(blocks)
			return []byte(strings.Join(append(blocks, text), "\n")), nil
		},
	}
	orders := [][]Part{
		{call1, call2, Text{"Checking."}},
		{Text{"Check"}, call1, Text{"ing."}, call2},
		{Text{"Che"}, call1, call2, Text{"cking."}},
		{call1, Text{"Checking."}, call2},
	}
	for name, body := range bodies {
		plain, err := body(Request{Model: "m", Messages: toolLoop(nil), Tools: loopTools})
		if err != nil {
			t.Fatal(err)
		}
		for _, parts := range orders {
			got, err := body(Request{Model: "m", Messages: ordered(nil, parts...), Tools: loopTools})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(plain) {
				t.Errorf("%s: order %v changes the body\n%s\nwithout it\n%s", name, parts, got, plain)
			}
		}
		ended := toolLoop(nil)
		ended[1].End = phase.End{Why: phase.EndStopped} // how a resumed reply ended: display data too
		if got, err := body(Request{Model: "m", Messages: ended, Tools: loopTools}); err != nil || string(got) != string(plain) {
			t.Errorf("%s: why the reply ended changes the body (%v)\n%s\nwithout it\n%s", name, err, got, plain)
		}
	}
	m := ordered(nil, Text{"Check"}, call1, Text{"ing."}, call2)[1]
	m.End = phase.End{Why: phase.EndStopped}
	b, err := json.Marshal(m)
	if err != nil || strings.Contains(string(b), "stopped") || !strings.Contains(string(b), `"content":"Checking."`) {
		t.Errorf("the message's JSON %s (%v)", b, err)
	}
}

// Redacting a message keeps its parts' order: each card stays between the same words; a
// secret across a card's place puts every card after the text.
func TestRedactMessageKeepsCardsPlaces(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	set := secret.New(key)
	red := secret.Redacted
	c1, c2 := ToolCall{ID: "c1", Name: "now"}, ToolCall{Index: 1, ID: "c2", Name: "now"}
	for _, tc := range []struct {
		name      string
		parts     []Part
		want      []Part
		reasoning string
	}{
		{"no secret", []Part{Text{"one "}, c1, Text{"two "}, c2, Text{"three"}},
			[]Part{Text{"one "}, c1, Text{"two "}, c2, Text{"three"}}, ""},
		{"a secret before the cards", []Part{Text{key + " "}, c1, Text{"two "}, c2, Text{"three"}},
			[]Part{Text{red + " "}, c1, Text{"two "}, c2, Text{"three"}}, ""},
		{"a secret between", []Part{Text{"one "}, c1, Text{key + " "}, c2, Text{"three"}},
			[]Part{Text{"one "}, c1, Text{red + " "}, c2, Text{"three"}}, ""},
		{"a secret after", []Part{Text{"one "}, c1, c2, Text{"two " + key}},
			[]Part{Text{"one "}, c1, c2, Text{"two " + red}}, ""},
		{"a secret across a place", []Part{Text{"one " + key[:5]}, c1, Text{key[5:] + " three"}, c2},
			[]Part{Text{"one " + red + " three"}, c1, c2}, ""},
		{"reasoning first", []Part{Reasoning{key}, c1, Text{"one"}},
			[]Part{Reasoning{red}, c1, Text{"one"}}, red},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Message{Role: "assistant", Parts: tc.parts}
			given := append([]Part(nil), tc.parts...)
			out := RedactMessage(set, m)
			if strings.Contains(out.Text(), key) || strings.Contains(out.Reasoning(), key) {
				t.Fatalf("the key is left: %q", out.Parts)
			}
			if !reflect.DeepEqual(out.Parts, tc.want) {
				t.Errorf("parts %q, want %q", out.Parts, tc.want)
			}
			if !reflect.DeepEqual(m.Parts, given) {
				t.Errorf("the message given was changed: %+v", m.Parts)
			}
		})
	}
}

// An assistant message goes back to Messages as the reply streamed it: its text split where
// each call's card stood, thinking first; a piece of text of white space alone is sent with the
// text after it, and a history read without an order sends the text first, as before.
func TestAnthropicRequestSendsBlocksInStreamOrder(t *testing.T) {
	native := &NativeReasoning{Wire: WireAnthropic, Items: []json.RawMessage{json.RawMessage(`{"signature":"s","thinking":"hm","type":"thinking"}`)}}
	for _, tc := range []struct {
		name  string
		parts []Part
		want  string
	}{
		{"text first", []Part{Text{"Checking."}, call1, call2}, "thinking text:Checking. c1 c2"},
		{"between", []Part{Text{"Checking."}, call1, Text{" Then time."}, call2}, "thinking text:Checking. c1 text: Then time. c2"},
		{"cards first", []Part{call1, call2, Text{"Checking."}}, "thinking c1 c2 text:Checking."},
		{"text between every call", []Part{Text{"Look."}, call1, Text{" So."}, call2, Text{" Done."}}, "thinking text:Look. c1 text: So. c2 text: Done."},
		{"white space alone between cards", []Part{Text{"Look."}, call1, Text{"\n\n"}, call2, Text{"Done."}}, "thinking text:Look. c1 c2 text:\n\nDone."},
		{"reasoning among the parts", []Part{Reasoning{"hm"}, Text{"Look."}, call1, Reasoning{"more"}, call2}, "thinking text:Look. c1 c2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := anthropicRequest(Request{Model: "claude", Messages: ordered(native, tc.parts...)}, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			var req struct {
				Messages []struct {
					Content []struct{ Type, Text, ID string }
				}
			}
			if err := json.Unmarshal(body, &req); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range req.Messages[1].Content {
				switch b.Type {
				case "text":
					got = append(got, "text:"+b.Text)
				case "tool_use":
					got = append(got, b.ID)
				default:
					got = append(got, b.Type)
				}
			}
			if strings.Join(got, " ") != tc.want {
				t.Fatalf("blocks %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}

// A message's accessors read its parts: text and reasoning joined in order, calls in order;
// appending text or reasoning grows the last part of that kind only when it is the last part.
func TestMessagePartsAccessors(t *testing.T) {
	var m Message
	m.AppendReasoning("hm")
	m.AppendReasoning("m")
	m.AppendText("Look")
	m.AppendText(".")
	m.Parts = append(m.Parts, call1)
	m.AppendText(" So.")
	m.AppendText("")
	m.Parts = append(m.Parts, call2)
	want := []Part{Reasoning{"hmm"}, Text{"Look."}, call1, Text{" So."}, call2}
	if !reflect.DeepEqual(m.Parts, want) {
		t.Fatalf("parts %q, want %q", m.Parts, want)
	}
	if m.Text() != "Look. So." || m.Reasoning() != "hmm" || !reflect.DeepEqual(m.Calls(), []ToolCall{call1, call2}) || !m.HasCalls() {
		t.Errorf("text %q, reasoning %q, calls %v", m.Text(), m.Reasoning(), m.Calls())
	}
	renamed := m
	renamed.SetCalls([]ToolCall{{ID: "x"}, {ID: "y"}})
	if got := renamed.Calls(); got[0].ID != "x" || got[1].ID != "y" || renamed.Text() != m.Text() || m.Calls()[0].ID != "c1" {
		t.Errorf("SetCalls: %q (given %q)", renamed.Parts, m.Parts)
	}
	if (Message{}).Calls() != nil || (Message{}).Text() != "" || TextParts("") != nil || ReplyParts("", "", nil) != nil {
		t.Error("an empty message has parts")
	}
}
