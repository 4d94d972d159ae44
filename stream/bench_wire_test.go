package stream

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

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
	for _, as := range []wire.Wire{wire.WireAnthropic, wire.WireResponses} {
		body, payloads := wireStream(as)
		res, err := Replay(bytes.NewReader(body), "", ReplayJSON, new(bytes.Buffer), nil)
		if err != nil || len(payloads) != 5000 || res.Outcome != wire.OutcomeComplete || len(res.Message.Calls()) != 2 ||
			!json.Valid([]byte(res.Message.Calls()[1].Arguments)) || len(res.Message.Text()) < 10000 || res.FinishReason != "tool_calls" {
			t.Fatalf("%s: %d payloads, outcome %s, %d calls, %d bytes of content, err %v", as, len(payloads), res.Outcome,
				len(res.Message.Calls()), len(res.Message.Text()), err)
		}
	}
}

// BenchmarkP1WirePipeline is P1 for each format: framing, decoding, the call lifecycle, the
// reducer and the tool-call machine over the 5,000-event stream, from its bytes.
func BenchmarkP1WirePipeline(b *testing.B) {
	for _, as := range []wire.Wire{wire.WireAnthropic, wire.WireResponses} {
		body, _ := wireStream(as)
		b.Run(string(as), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				f := newFeed(bytes.NewReader(body), "text/event-stream", nil, func(error) error { return nil })
				f.wire = as
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
	for _, as := range []wire.Wire{wire.WireAnthropic, wire.WireResponses} {
		body, payloads := wireStream(as)
		b.Run(string(as), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range payloads {
					var err error
					if as == wire.WireAnthropic {
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
