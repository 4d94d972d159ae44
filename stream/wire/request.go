package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Encode is req in format w: a streaming request when stream is true; for Chat Completions,
// with stream_options only when streamOptions is true and the current turn's reasoning only
// when sendReasoning is. o's ExtraBody is merged in whatever the format.
func Encode(w Wire, req Request, stream, streamOptions, sendReasoning bool, o *Options) ([]byte, error) {
	if o == nil {
		o = &Options{}
	}
	var (
		b   []byte
		err error
	)
	switch w.OrChat() {
	case WireAnthropic:
		b, err = anthropicRequest(req, stream, o)
	case WireResponses:
		b, err = responsesRequest(req, stream, o)
	default:
		return req.body(stream, streamOptions, sendReasoning, o)
	}
	if err != nil || len(o.ExtraBody) == 0 {
		return b, err
	}
	return mergeExtra(b, o.ExtraBody)
}

// Options are a provider's request settings. Nil and zero fields are not sent.
type Options struct {
	StreamOptions   StreamOptionsMode
	MaxTokens       *int
	Temperature     *float64
	ReasoningEffort string
	// ExtraBody is merged into every request's body; a key the request already holds
	// (model, messages, stream, tools, or a setting above) is not replaced.
	ExtraBody map[string]any
}

// StreamOptionsMode says when a streaming request carries stream_options
// {"include_usage": true}, which asks for the usage in a last chunk.
type StreamOptionsMode uint8

const (
	// StreamOptionsAuto sends it; when the server answers 400 or 422 with a body that names
	// stream_options, the request is sent again once without it, and the client never sends
	// it again (the Result's Notice says so, once).
	StreamOptionsAuto StreamOptionsMode = iota
	StreamOptionsAlways
	StreamOptionsNever
)

// Request is one chat completion request. System, when set, is sent as a leading system
// message. Reasoning (in the field the provider sent it in) and tool calls' extra_content
// are sent for the messages after the last user message only — the current turn's tool loop,
// which providers such as DeepSeek and Gemini need back — and dropped from earlier turns.
type Request struct {
	Model    string
	System   string
	Messages []Message
	Tools    []Tool
}

// body is the request's JSON: stream_options only when streamOptions is true, and the current
// turn's reasoning only when sendReasoning is.
func (req Request) body(stream, streamOptions, sendReasoning bool, o *Options) ([]byte, error) {
	msgs := make([]any, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, Message{Role: "system", Parts: TextParts(req.System)})
	}
	current := currentTurn(req.Messages)
	for i, m := range req.Messages {
		m.Native = nil // another format's: a Chat Completions server must not get it
		if i < current {
			m = m.withoutTurnState()
		} else if !sendReasoning {
			m.ReasoningField = "" // so never sent
		}
		if len(m.Attachments) > 0 {
			msgs = append(msgs, chatUserMessage(m))
			continue
		}
		msgs = append(msgs, m)
	}
	type streamOpts struct {
		IncludeUsage bool `json:"include_usage"`
	}
	var so *streamOpts
	if stream && streamOptions {
		so = &streamOpts{IncludeUsage: true} // usage arrives in a last chunk
	}
	if o == nil {
		o = &Options{}
	}
	b, err := json.Marshal(struct {
		Model           string      `json:"model"`
		Messages        []any       `json:"messages"` // Message, or a user message with parts
		Tools           []Tool      `json:"tools,omitempty"`
		Stream          bool        `json:"stream"`
		StreamOptions   *streamOpts `json:"stream_options,omitempty"`
		MaxTokens       *int        `json:"max_tokens,omitempty"`
		Temperature     *float64    `json:"temperature,omitempty"`
		ReasoningEffort string      `json:"reasoning_effort,omitempty"`
	}{req.Model, msgs, req.Tools, stream, so, o.MaxTokens, o.Temperature, o.ReasoningEffort})
	if err != nil || len(o.ExtraBody) == 0 {
		return b, err
	}
	return mergeExtra(b, o.ExtraBody)
}

// mergeExtra adds extra's keys to the JSON object b, in sorted order, skipping keys b has.
func mergeExtra(b []byte, extra map[string]any) ([]byte, error) {
	var have map[string]json.RawMessage
	if err := json.Unmarshal(b, &have); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if _, taken := have[k]; !taken {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := bytes.TrimSuffix(b, []byte("}"))
	for _, k := range keys {
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(extra[k])
		if err != nil {
			return nil, fmt.Errorf("extra_body %s: %w", k, err)
		}
		out = append(append(append(append(out, ','), kb...), ':'), vb...)
	}
	return append(out, '}'), nil
}

// currentTurn is the index of the last user message: the messages from there on are the
// current turn's tool loop. 0 when there is none.
func currentTurn(msgs []Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return i
		}
	}
	return 0
}

// SendsReasoning reports whether a Chat Completions request carries reasoning back: an
// assistant message of the current turn with reasoning in a known field.
func SendsReasoning(req Request) bool {
	for _, m := range req.Messages[currentTurn(req.Messages):] {
		if m.ReasoningField != "" && m.Reasoning() != "" {
			return true
		}
	}
	return false
}
