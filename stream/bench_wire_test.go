package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// wireStream is a realistic stream of 5,000 events in wire's format, as the providers send
// them: text deltas (about 3,000), then two read_file calls of about 1,000 argument fragments
// each, then the format's end. It returns the SSE body and the events' data payloads.
func wireStream(wire Wire) (body []byte, payloads [][]byte) {
	words := strings.Fields("The quick brown fox jumps over the lazy dog while a \"streaming\" reply keeps arriving, token by token; tools run meanwhile. ")
	var b bytes.Buffer
	add := func(event, data string) {
		payloads = append(payloads, []byte(data))
		b.WriteString("event: " + event + "\ndata: " + data + "\n\n")
	}
	q := func(s string) string { out, _ := json.Marshal(s); return string(out) }
	frag := func(i int) string {
		frags := []string{`{"`, `path`, `":"`, `src/`, `main`, `.go`, `","`, `lines`, `":[`}
		switch {
		case i < len(frags):
			return frags[i]
		case i == 994:
			return `0]}`
		}
		return fmt.Sprintf("%d,", i)
	}
	var text, args strings.Builder
	if wire == WireAnthropic {
		add("message_start", `{"type":"message_start","message":{"model":"claude-sonnet-4-20250514","id":"msg_01KTBB57LAzaSZs8kMNvfnsY","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":424,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":5,"service_tier":"standard"}}}`)
		add("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		for i := range 2999 {
			add("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+q(" "+words[i%len(words)])+`}}`)
		}
		add("content_block_stop", `{"type":"content_block_stop","index":0}`)
		for call := 1; call <= 2; call++ {
			add("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"toolu_01Js4AMfx5qpTLhwTusnvT6%d","name":"read_file","input":{}}}`, call, call))
			for i := range 995 + 1 {
				f := ""
				if i > 0 {
					f = frag(i - 1)
				}
				add("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, call, q(f)))
			}
			add("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, call))
		}
		add("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":4998}}`)
		add("message_stop", `{"type":"message_stop"}`)
		return b.Bytes(), payloads
	}
	seq := 0
	ev := func(typ, fields string) {
		add(typ, fmt.Sprintf(`{"type":%q,%s,"sequence_number":%d}`, typ, fields, seq))
		seq++
	}
	resp := func(status, output string) string {
		return `"response":{"id":"resp_08e0d5fe24768fbd016a3c11fec04081928b7c5c05d975fc26","object":"response","created_at":1782321662,"status":"` + status +
			`","error":null,"incomplete_details":null,"model":"gpt-4o-2024-08-06","output":` + output + `,"parallel_tool_calls":true,"store":false,"usage":null}`
	}
	ev("response.created", resp("in_progress", "[]"))
	ev("response.in_progress", resp("in_progress", "[]"))
	msg := "msg_08e0d5fe24768fbd016a3c11f9002081a180824d7cd06bccbd"
	ev("response.output_item.added", `"output_index":0,"item":{"id":"`+msg+`","type":"message","status":"in_progress","content":[],"role":"assistant"}`)
	ev("response.content_part.added", `"item_id":"`+msg+`","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"text":""}`)
	for i := range 2996 {
		w := " " + words[i%len(words)]
		text.WriteString(w)
		ev("response.output_text.delta", `"item_id":"`+msg+`","output_index":0,"content_index":0,"delta":`+q(w)+`,"logprobs":[],"obfuscation":"abc"`)
	}
	ev("response.output_text.done", `"item_id":"`+msg+`","output_index":0,"content_index":0,"text":`+q(text.String()))
	ev("response.content_part.done", `"item_id":"`+msg+`","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"text":`+q(text.String())+`}`)
	msgItem := `{"id":"` + msg + `","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"text":` + q(text.String()) + `}],"role":"assistant"}`
	ev("response.output_item.done", `"output_index":0,"item":`+msgItem)
	output := []string{msgItem}
	for call := 1; call <= 2; call++ {
		fc := fmt.Sprintf("fc_08e0d5fe24768fbd016a3c120112e481928ab6e9c900d449e%d", call)
		cid := fmt.Sprintf("call_PRiJm2RVAvt7IoRvjxIXxFV%d", call)
		ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":{"id":"%s","type":"function_call","status":"in_progress","arguments":"","call_id":"%s","name":"read_file"}`, call, fc, cid))
		args.Reset()
		for i := range 995 {
			args.WriteString(frag(i))
			ev("response.function_call_arguments.delta", fmt.Sprintf(`"delta":%s,"item_id":"%s","obfuscation":"gXoA7jn","output_index":%d`, q(frag(i)), fc, call))
		}
		ev("response.function_call_arguments.done", fmt.Sprintf(`"arguments":%s,"item_id":"%s","output_index":%d`, q(args.String()), fc, call))
		item := fmt.Sprintf(`{"id":"%s","type":"function_call","status":"completed","arguments":%s,"call_id":"%s","name":"read_file"}`, fc, q(args.String()), cid)
		ev("response.output_item.done", fmt.Sprintf(`"output_index":%d,"item":%s`, call, item))
		output = append(output, item)
	}
	done := strings.Replace(resp("completed", "["+strings.Join(output, ",")+"]"), `"usage":null`,
		`"usage":{"input_tokens":58,"input_tokens_details":{"cached_tokens":0},"output_tokens":4998,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":5056}`, 1)
	ev("response.completed", done)
	return b.Bytes(), payloads
}

// minimalAnthropic and minimalResponses are the least a client must decode from each event:
// the baselines of the per-format P1 benchmarks.
type minimalAnthropic struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock struct {
		Type, ID, Name string
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *struct {
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

type minimalResponses struct {
	Type        string `json:"type"`
	ItemID      string `json:"item_id"`
	OutputIndex int    `json:"output_index"`
	Delta       string `json:"delta"`
	Item        *struct {
		Type, ID, Name string
		CallID         string `json:"call_id"`
	} `json:"item"`
	Response *struct {
		Status string `json:"status"`
		Usage  *struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	} `json:"response"`
}

func TestWireStreamsAreWhatTheySay(t *testing.T) {
	for _, wire := range []Wire{WireAnthropic, WireResponses} {
		body, payloads := wireStream(wire)
		res, err := Replay(bytes.NewReader(body), "", ReplayJSON, new(bytes.Buffer), nil)
		if err != nil || len(payloads) != 5000 || res.Outcome != OutcomeComplete || len(res.Message.ToolCalls) != 2 ||
			!json.Valid([]byte(res.Message.ToolCalls[1].Arguments)) || len(res.Message.Content) < 10000 || res.FinishReason != "tool_calls" {
			t.Fatalf("%s: %d payloads, outcome %s, %d calls, %d bytes of content, err %v", wire, len(payloads), res.Outcome,
				len(res.Message.ToolCalls), len(res.Message.Content), err)
		}
	}
}

// BenchmarkP1WirePipeline is P1 for each format: framing, decoding, the call lifecycle, the
// reducer and the tool-call machine over the 5,000-event stream, from its bytes.
func BenchmarkP1WirePipeline(b *testing.B) {
	for _, wire := range []Wire{WireAnthropic, WireResponses} {
		body, _ := wireStream(wire)
		b.Run(string(wire), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				f := newFeed(bytes.NewReader(body), "text/event-stream", nil, func(error) error { return nil })
				f.wire = wire
				s := phase.Reduce(phase.State{}, phase.Event{Kind: phase.KindSubmit})
				m := phase.NewToolCalls()
				for u, ok := f.next(); ok; u, ok = f.next() {
					for _, ev := range u.Events {
						s = phase.Reduce(s, ev)
					}
					for _, c := range u.Calls {
						m.Apply(c)
					}
				}
				if s.Phase != phase.Complete || m.Len() != 2 {
					b.Fatal(s.Phase, m.Len())
				}
			}
		})
	}
}

// BenchmarkP1WireBareUnmarshal is the baseline: json.Unmarshal of the same events' payloads,
// already cut out, into the minimal struct of the format. SetBytes counts the same SSE body.
func BenchmarkP1WireBareUnmarshal(b *testing.B) {
	for _, wire := range []Wire{WireAnthropic, WireResponses} {
		body, payloads := wireStream(wire)
		b.Run(string(wire), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range payloads {
					var err error
					if wire == WireAnthropic {
						var e minimalAnthropic
						err = json.Unmarshal(p, &e)
					} else {
						var e minimalResponses
						err = json.Unmarshal(p, &e)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkP1WireBareScan is the pipeline's own decoding alone: the one-pass event scanner
// over the same payloads, already cut out (what the pipeline adds to it is framing, the call
// lifecycle, the reducer and the machine).
func BenchmarkP1WireBareScan(b *testing.B) {
	for _, wire := range []Wire{WireAnthropic, WireResponses} {
		body, payloads := wireStream(wire)
		texts := make([]string, len(payloads))
		for i, p := range payloads {
			texts[i] = string(p)
		}
		b.Run(string(wire), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range texts {
					var ok bool
					if wire == WireAnthropic {
						var e anthropicEvent
						ok = decodeAnthropicEvent(p, &e)
					} else {
						var e responsesEvent
						ok = decodeResponsesEvent(p, &e)
					}
					if !ok {
						b.Fatal(p)
					}
				}
			}
		})
	}
}
