package stream

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// minimalChunk is the least a client must decode from a chunk: the baseline of P1.
type minimalChunk struct {
	Choices []struct {
		Delta struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func TestRealisticStreamIsWhatItSays(t *testing.T) {
	body, payloads := realisticStream()
	res, err := Replay(bytes.NewReader(body), "", ReplayJSON, io.Discard, nil)
	if err != nil || len(payloads) != 5000 || res.Outcome != wire.OutcomeComplete || len(res.Message.Calls()) != 2 ||
		!json.Valid([]byte(res.Message.Calls()[1].Arguments)) || len(res.Message.Text()) < 10000 {
		t.Fatalf("%d payloads, result %+v, err %v", len(payloads), res.Outcome, err)
	}
}

// BenchmarkP1Pipeline is P1 (docs/architecture.md, Performance): framing, decoding, reassembly and the reducer
// over the realistic stream, from its bytes.
func BenchmarkP1Pipeline(b *testing.B) {
	body, _ := realisticStream()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		f := newFeed(bytes.NewReader(body), "text/event-stream", nil, func(error) error { return nil })
		s := phase.Reduce(phase.State{}, phase.Event{Kind: phase.KindSubmit})
		for u, ok := f.next(); ok; u, ok = f.next() {
			for _, ev := range u.Events {
				s = phase.Reduce(s, ev)
			}
		}
		if s.Phase != phase.Complete {
			b.Fatal(s.Phase)
		}
	}
}

// BenchmarkP1PipelineWithToolCalls adds applying the CallEvents to phase.ToolCalls.
func BenchmarkP1PipelineWithToolCalls(b *testing.B) {
	body, _ := realisticStream()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		f := newFeed(bytes.NewReader(body), "text/event-stream", nil, func(error) error { return nil })
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
		if m.Len() != 2 {
			b.Fatal(m.Len())
		}
	}
}

// BenchmarkP1BareUnmarshal is P1's baseline: json.Unmarshal of the same chunks' payloads,
// already cut out, into minimalChunk. SetBytes counts the same SSE body, so MB/s compare.
func BenchmarkP1BareUnmarshal(b *testing.B) {
	body, payloads := realisticStream()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range payloads {
			var c minimalChunk
			if err := json.Unmarshal(p, &c); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkP1Framing is the framing alone (the framer and its field parser).
func BenchmarkP1Framing(b *testing.B) {
	body, _ := realisticStream()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		fr := newFramer(bytes.NewReader(body), nil)
		for {
			if _, err := fr.Next(); err != nil {
				break
			}
		}
	}
}
