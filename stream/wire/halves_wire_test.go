package wire

import (
	"reflect"
	"testing"
)

// textDeltas is every text (or reasoning, when reasoning is set) delta the updates emitted.
func textDeltas(ups []Update, kind string) []string {
	var out []string
	for _, u := range ups {
		for _, ev := range u.Events {
			if ev.Kind.String() == kind && ev.Delta != "" {
				out = append(out, ev.Delta)
			}
		}
	}
	return out
}

func TestAnthropicJoinsSurrogateHalvesAcrossDeltas(t *testing.T) {
	start := `{"type":"message_start","message":{"usage":{"input_tokens":1}}}`
	textBlock := `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	thinkBlock := `{"type":"content_block_start","index":1,"content_block":{"type":"thinking","thinking":""}}`
	text := func(i int, s string) string {
		return `{"type":"content_block_delta","index":` + string(rune('0'+i)) + `,"delta":{"type":"text_delta","text":"` + s + `"}}`
	}
	think := func(s string) string {
		return `{"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"` + s + `"}}`
	}
	stop := func(i int) string {
		return `{"type":"content_block_stop","index":` + string(rune('0'+i)) + `}`
	}
	end := `{"type":"message_stop"}`
	tests := []struct {
		name             string
		events           []string
		content, reason  string
		deltas, thoughts []string
	}{
		{
			name:    "an emoji cut between its halves",
			events:  []string{start, textBlock, text(0, `a \ud83d`), text(0, `\ude00 b`), stop(0), end},
			content: "a 😀 b", deltas: []string{"a ", "😀 b"},
		},
		{
			name:    "each half a delta of its own",
			events:  []string{start, textBlock, text(0, `\ud83d`), text(0, `\ude00`), stop(0), end},
			content: "😀", deltas: []string{"😀"},
		},
		{
			name:    "a high half the next delta does not complete",
			events:  []string{start, textBlock, text(0, `x\ud83d`), text(0, `y`), stop(0), end},
			content: "x\uFFFDy", deltas: []string{"x", "\uFFFDy"},
		},
		{
			name:    "a high half at the end of its block",
			events:  []string{start, textBlock, text(0, `x\ud83d`), stop(0), end},
			content: "x\uFFFD", deltas: []string{"x", "\uFFFD"},
		},
		{
			name:    "a lone low half",
			events:  []string{start, textBlock, text(0, `\ude00x`), stop(0), end},
			content: "\uFFFDx", deltas: []string{"\uFFFDx"},
		},
		{
			name:    "thinking is joined apart from text",
			events:  []string{start, textBlock, thinkBlock, think(`\ud83e`), text(0, `c`), think(`\udd14`), stop(1), stop(0), end},
			content: "c", reason: "🤔", deltas: []string{"c"}, thoughts: []string{"🤔"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pairs []string
			for _, ev := range tt.events {
				pairs = append(pairs, "", ev)
			}
			ups, res := runWire(t, WireAnthropic, sseBody(pairs...))
			if res.Outcome != OutcomeComplete {
				t.Fatalf("outcome %q (%v)", res.Outcome, res.Err)
			}
			if res.Message.Text() != tt.content || res.Message.Reasoning() != tt.reason {
				t.Fatalf("content %q reasoning %q, want %q and %q", res.Message.Text(), res.Message.Reasoning(), tt.content, tt.reason)
			}
			if got := textDeltas(ups, "text"); !reflect.DeepEqual(got, tt.deltas) {
				t.Fatalf("text deltas %q, want %q", got, tt.deltas)
			}
			if got := textDeltas(ups, "reasoning"); !reflect.DeepEqual(got, tt.thoughts) {
				t.Fatalf("reasoning deltas %q, want %q", got, tt.thoughts)
			}
		})
	}
}

func TestAnthropicThinkingKeptForReplayIsJoined(t *testing.T) {
	_, res := runWire(t, WireAnthropic, sseBody(
		"", `{"type":"message_start","message":{}}`,
		"", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
		"", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm \ud83e"}}`,
		"", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"\udd14"}}`,
		"", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig"}}`,
		"", `{"type":"content_block_stop","index":0}`,
		"", `{"type":"message_stop"}`))
	if res.Message.Native == nil || len(res.Message.Native.Items) != 1 {
		t.Fatalf("native %+v, want the signed thinking block kept", res.Message.Native)
	}
	if got := string(res.Message.Native.Items[0]); !reflect.DeepEqual(got, `{"signature":"sig","thinking":"hm 🤔","type":"thinking"}`) {
		t.Fatalf("kept block %s", got)
	}
}

func TestResponsesJoinsSurrogateHalvesAcrossDeltas(t *testing.T) {
	summary := func(s string) string {
		return `{"type":"response.reasoning_summary_text.delta","item_id":"rs","output_index":0,"summary_index":0,"delta":"` + s + `"}`
	}
	text := func(s string) string {
		return `{"type":"response.output_text.delta","item_id":"m","output_index":1,"content_index":0,"delta":"` + s + `"}`
	}
	textDone := func(s string) string {
		return `{"type":"response.output_text.done","item_id":"m","output_index":1,"content_index":0,"text":"` + s + `"}`
	}
	tests := []struct {
		name             string
		events           []string
		content, reason  string
		deltas, thoughts []string
	}{
		{
			name:    "an emoji cut between its halves",
			events:  []string{text(`a \ud83d`), text(`\ude00 b`)},
			content: "a 😀 b", deltas: []string{"a ", "😀 b"},
		},
		{
			name:    "each half a delta of its own",
			events:  []string{text(`\ud83d`), text(`\ude00`)},
			content: "😀", deltas: []string{"😀"},
		},
		{
			name:    "a high half the next delta does not complete",
			events:  []string{text(`x\ud83d`), text(`y`)},
			content: "x\uFFFDy", deltas: []string{"x", "\uFFFDy"},
		},
		{
			name:    "a high half at the end of the stream",
			events:  []string{text(`x\ud83d`)},
			content: "x\uFFFD", deltas: []string{"x", "\uFFFD"},
		},
		{
			name:    "the done text completes a held half",
			events:  []string{text(`x\ud83d`), textDone(`x\ud83d\ude00`)},
			content: "x😀", deltas: []string{"x", "😀"},
		},
		{
			name:    "the done text agrees with joined deltas",
			events:  []string{text(`x\ud83d`), text(`\ude00`), textDone(`x\ud83d\ude00`)},
			content: "x😀", deltas: []string{"x", "😀"},
		},
		{
			name:    "the summary is joined apart from the text",
			events:  []string{summary(`\ud83e`), text(`c`), summary(`\udd14`)},
			content: "c", reason: "\uFFFD\n\n\uFFFD", deltas: []string{"c"}, thoughts: []string{"\uFFFD", "\n\n\uFFFD"},
		},
		{
			name:   "summary halves in a row",
			events: []string{summary(`\ud83e`), summary(`\udd14`)},
			reason: "🤔", thoughts: []string{"🤔"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pairs := []string{"", rCreated}
			for _, ev := range tt.events {
				pairs = append(pairs, "", ev)
			}
			pairs = append(pairs, "", rCompleted("completed"))
			ups, res := runWire(t, WireResponses, sseBody(pairs...))
			if res.Outcome != OutcomeComplete {
				t.Fatalf("outcome %q (%v)", res.Outcome, res.Err)
			}
			if res.Message.Text() != tt.content || res.Message.Reasoning() != tt.reason {
				t.Fatalf("content %q reasoning %q, want %q and %q", res.Message.Text(), res.Message.Reasoning(), tt.content, tt.reason)
			}
			if got := textDeltas(ups, "text"); !reflect.DeepEqual(got, tt.deltas) {
				t.Fatalf("text deltas %q, want %q", got, tt.deltas)
			}
			if got := textDeltas(ups, "reasoning"); !reflect.DeepEqual(got, tt.thoughts) {
				t.Fatalf("reasoning deltas %q, want %q", got, tt.thoughts)
			}
		})
	}
}
