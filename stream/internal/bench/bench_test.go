package bench

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/internal/bench/benchdata"
)

// sdkAccumulate runs body through ssestream and ChatCompletionAccumulator, the SDK's way of
// reassembling a streamed reply.
func sdkAccumulate(body []byte) (openai.ChatCompletionAccumulator, error) {
	res := &http.Response{
		StatusCode: 200,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(body)),
	}
	s := ssestream.NewStream[openai.ChatCompletionChunk](ssestream.NewDecoder(res), nil)
	var acc openai.ChatCompletionAccumulator
	for s.Next() {
		acc.AddChunk(s.Current())
	}
	return acc, s.Err()
}

func TestBothReadTheSameReply(t *testing.T) {
	body, _ := benchdata.RealisticStream()
	acc, err := sdkAccumulate(body)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := stream.Replay(bytes.NewReader(body), "", stream.ReplayJSON, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := acc.Choices[0].Message
	if msg.Content != ours.Message.Text() || len(msg.ToolCalls) != len(ours.Message.Calls()) {
		t.Fatalf("SDK: %d bytes, %d calls; ours: %d bytes, %d calls", len(msg.Content), len(msg.ToolCalls),
			len(ours.Message.Text()), len(ours.Message.Calls()))
	}
	for i, tc := range msg.ToolCalls {
		if tc.Function.Arguments != ours.Message.Calls()[i].Arguments {
			t.Errorf("call %d arguments differ", i)
		}
	}
}

// BenchmarkPhasechat is the whole pipeline (framing, decoding, reassembly, the phase reducer)
// through the public entry point that reads a body, stream.Replay.
func BenchmarkPhasechat(b *testing.B) {
	body, _ := benchdata.RealisticStream()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := stream.Replay(bytes.NewReader(body), "", stream.ReplayJSON, io.Discard, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenAIGoAccumulator is ssestream + ChatCompletionAccumulator on the same bytes.
func BenchmarkOpenAIGoAccumulator(b *testing.B) {
	body, _ := benchdata.RealisticStream()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sdkAccumulate(body); err != nil {
			b.Fatal(err)
		}
	}
}
