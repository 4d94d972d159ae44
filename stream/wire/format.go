package wire

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Wire is a streaming chat API's wire format: how a request is shaped, where it goes and how
// its answer is decoded. The zero value is WireChat.
type Wire string

const (
	WireChat      Wire = "chat"      // OpenAI Chat Completions: BASE/chat/completions
	WireAnthropic Wire = "anthropic" // Anthropic Messages: BASE/messages
	WireResponses Wire = "responses" // OpenAI Responses: BASE/responses
)

// Wires lists every wire format, in the order help texts show them.
var Wires = []Wire{WireChat, WireAnthropic, WireResponses}

// ParseWire reads a format's name as the command line gives it (chat, anthropic, responses)
// or as a provider's type names it (openai, anthropic, openai-responses).
func ParseWire(s string) (Wire, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "chat", "openai", "chat-completions", "":
		return WireChat, nil
	case "anthropic", "messages":
		return WireAnthropic, nil
	case "responses", "openai-responses":
		return WireResponses, nil
	}
	return "", fmt.Errorf("unknown wire format %q: use chat, anthropic or responses", s)
}

// OrChat is w, or WireChat for the zero value (which means Chat Completions).
func (w Wire) OrChat() Wire {
	if w == "" {
		return WireChat
	}
	return w
}

// Label is the format's name for people, as the footer shows it.
func (w Wire) Label() string {
	switch w.OrChat() {
	case WireAnthropic:
		return "Anthropic Messages"
	case WireResponses:
		return "OpenAI Responses"
	}
	return "Chat Completions"
}

// Path is the endpoint's path below the base URL.
func (w Wire) Path() string {
	switch w.OrChat() {
	case WireAnthropic:
		return "/messages"
	case WireResponses:
		return "/responses"
	}
	return "/chat/completions"
}

// FrameDecoder is one wire format's decoder: frames in, Updates out, the reply reassembled.
// Every implementation ends a stream with exactly one end-of-stream Update and one Outcome,
// by the same rules (see Decoder.End), and is pure: no I/O, no clock.
type FrameDecoder interface {
	Frame(Frame) Update
	End(cause error) Update
	Result() Result
	// Ended reports that the format's own end event arrived: nothing more is read.
	Ended() bool
	// LeaveText is for a caller that gathers the reply's text and reasoning from the
	// updates' events itself: Result's Message then holds its calls and native reasoning
	// but none of that text, so a streaming reply is not held twice. Call it before the
	// first frame.
	LeaveText()
}

// LeaveText makes Result hold no text nor reasoning.
func (d *Decoder) LeaveText() { d.content.left, d.reasoning.left = true, true }

// Ended reports that the stream ended with [DONE] or End: nothing more is read.
func (d *Decoder) Ended() bool { return d.outcome != "" }

// NewFrameDecoder is the decoder of format w for one stream (Chat Completions for the zero
// value or an unknown one).
func NewFrameDecoder(w Wire) FrameDecoder {
	switch w {
	case WireAnthropic:
		return newAnthropicDecoder()
	case WireResponses:
		return newResponsesDecoder()
	}
	return NewDecoder()
}

// anthropicEvents are the Anthropic Messages event types (an error is not among them: every
// format sends one, and each decoder reads it the same way).
var anthropicEvents = map[string]bool{
	"message_start": true, "content_block_start": true, "content_block_delta": true,
	"content_block_stop": true, "message_delta": true, "message_stop": true, "ping": true,
}

// DetectWire says which format a stream is in from its first event: by the SSE event name
// when it names one of a format's events, else by the data's "type". Anything else is
// Chat Completions.
func DetectWire(first Frame) Wire {
	if w, ok := wireOfType(first.Event); ok {
		return w
	}
	if !strings.Contains(first.Data, `"type"`) {
		return WireChat
	}
	var head struct {
		Type    string          `json:"type"`
		Choices json.RawMessage `json:"choices"`
	}
	if json.Unmarshal([]byte(first.Data), &head) != nil && head.Type == "" || head.Choices != nil {
		return WireChat
	}
	w, _ := wireOfType(head.Type)
	return w
}

func wireOfType(t string) (Wire, bool) {
	switch {
	case anthropicEvents[t]:
		return WireAnthropic, true
	case strings.HasPrefix(t, "response."):
		return WireResponses, true
	}
	return WireChat, false
}
