package wire

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/phase"
)

// placed is toolLoop with its calls' places in the reply's text set to after.
func placed(native *NativeReasoning, after ...int) []Message {
	msgs := toolLoop(native)
	for i := range after {
		msgs[1].ToolCalls[i].TextAfter = after[i]
	}
	return msgs
}

// Where a call's card stood in the reply's text is display data: a Chat Completions or
// Responses body does not depend on it, an Anthropic body only orders its blocks by it (see
// TestAnthropicRequestSendsBlocksInStreamOrder), and the message's own JSON does not carry it.
// Nor does why a resumed reply ended.
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
		ended := toolLoop(nil)
		ended[1].End = phase.End{Why: phase.EndStopped} // how a resumed reply ended: display data too
		if got, err := body(Request{Model: "m", Messages: ended, Tools: loopTools}); err != nil || string(got) != string(plain) {
			t.Errorf("%s: why the reply ended changes the body (%v)\n%s\nwithout it\n%s", name, err, got, plain)
		}
	}
	m := placed(nil, 9, 4)[1]
	m.End = phase.End{Why: phase.EndStopped}
	b, err := json.Marshal(m)
	if err != nil || strings.Contains(strings.ToLower(string(b)), "after") || strings.Contains(string(b), "stopped") {
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

// An assistant message goes back to Messages as the reply streamed it: its text split where
// each call's card stood, thinking first; a piece of text of white space alone is sent with the
// text after it, and a history without places sends the text first, as before.
func TestAnthropicRequestSendsBlocksInStreamOrder(t *testing.T) {
	native := &NativeReasoning{Wire: WireAnthropic, Items: []json.RawMessage{json.RawMessage(`{"signature":"s","thinking":"hm","type":"thinking"}`)}}
	for _, tc := range []struct {
		name    string
		content string
		after   []int
		want    string
	}{
		{"no places", "Checking.", []int{0, 0}, "thinking text:Checking. c1 c2"},
		{"between", "Checking. Then time.", []int{11, 0}, "thinking text:Checking. c1 text: Then time. c2"},
		{"cards first", "Checking.", []int{9, 9}, "thinking c1 c2 text:Checking."},
		{"text between every call", "Look. So. Done.", []int{10, 6}, "thinking text:Look. c1 text: So. c2 text: Done."},
		{"white space alone between cards", "Look.\n\nDone.", []int{7, 5}, "thinking text:Look. c1 c2 text:\n\nDone."},
		{"hostile places", "Look.", []int{-3, 99}, "thinking text:Look. c1 c2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := toolLoop(native)
			msgs[1].Content = tc.content
			for i, after := range tc.after {
				msgs[1].ToolCalls[i].TextAfter = after
			}
			body, err := anthropicRequest(Request{Model: "claude", Messages: msgs}, true, nil)
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
