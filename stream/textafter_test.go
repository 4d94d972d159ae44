package stream

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase/secret"
)

// placed is toolLoop with its calls' places in the reply's text set to after.
func placed(native *NativeReasoning, after ...int) []Message {
	msgs := toolLoop(native)
	for i := range after {
		msgs[1].ToolCalls[i].TextAfter = after[i]
	}
	return msgs
}

// Where a call's card stood in the reply's text is display data: no request body of any
// format depends on it, and the message's own JSON does not carry it.
func TestRequestBodiesNeverCarryCardsPlaces(t *testing.T) {
	bodies := map[string]func(Request) ([]byte, error){
		"chat":      func(r Request) ([]byte, error) { return r.body(true, true, true, nil) },
		"anthropic": func(r Request) ([]byte, error) { return anthropicRequest(r, true, nil) },
		"responses": func(r Request) ([]byte, error) { return responsesRequest(r, true, nil) },
	}
	for name, body := range bodies {
		plain, err := body(Request{Model: "m", Messages: toolLoop(nil), Tools: loopTools})
		if err != nil {
			t.Fatal(err)
		}
		for _, after := range [][]int{{9, 9}, {9, 4}, {3, 0}, {-1, 77}} {
			got, err := body(Request{Model: "m", Messages: placed(nil, after...), Tools: loopTools})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(plain) {
				t.Errorf("%s: places %v change the body\n%s\nwithout them\n%s", name, after, got, plain)
			}
		}
	}
	b, err := json.Marshal(placed(nil, 9, 4)[1])
	if err != nil || strings.Contains(strings.ToLower(string(b)), "after") {
		t.Errorf("the message's JSON %s (%v)", b, err)
	}
}

// Redacting a message counts its cards' places again in the redacted text: each card stays
// between the same words; a secret across a card's place puts every card after the text.
func TestRedactMessageKeepsCardsPlaces(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	set := secret.New(key)
	for _, tc := range []struct {
		name, content string
		after         []int
		want          []int
	}{
		{"no secret", "one two three", []int{9, 5}, []int{9, 5}},
		{"a secret before the cards", key + " two three", []int{9, 5}, []int{9, 5}},
		{"a secret between", "one " + key + " three", []int{len(key) + 7, 5}, []int{len(secret.Redacted) + 7, 5}},
		{"a secret after", "one two " + key, []int{len(key) + 4, len(key)}, []int{len(secret.Redacted) + 4, len(secret.Redacted)}},
		{"a secret across a place", "one " + key + " three", []int{len(key) + 6 - 5, 3}, []int{0, 0}},
		{"a place past the text", "one " + key, []int{99, 0}, []int{0, 0}},
		{"a card after the text", key + " one", []int{0, 0}, []int{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Message{Role: "assistant", Content: tc.content}
			for i, after := range tc.after {
				m.ToolCalls = append(m.ToolCalls, ToolCall{Index: i, ID: "c" + string(rune('1'+i)), Name: "now", TextAfter: after})
			}
			out := RedactMessage(set, m)
			if strings.Contains(out.Content, key) {
				t.Fatalf("the key is left: %q", out.Content)
			}
			for i, tc2 := range out.ToolCalls {
				if tc2.TextAfter != tc.want[i] {
					t.Errorf("call %d: TextAfter %d, want %d (content %q)", i, tc2.TextAfter, tc.want[i], out.Content)
				}
				if m.ToolCalls[i].TextAfter != tc.after[i] {
					t.Errorf("the message given was changed: %+v", m.ToolCalls)
				}
			}
		})
	}
}
