package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/phasechat/phasechat/internal/format"
)

// Error is how a stream failed. Message is what the user is told, in words they can act on
// (never containing the API key); Cause is the underlying error, for logs and errors.Is.
// Status is the HTTP status when the server answered with one, RetryAfter the wait a 429 or
// 503 asked for.
type Error struct {
	Message    string
	Cause      error
	Status     int
	RetryAfter time.Duration

	// Detail is the server's own words, for a caller that adds context to Message.
	Detail string
	// Helps is what retrying can do; read it through Retry, which also takes a nil *Error.
	Helps RetryHelps
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Cause }

// MsgTruncated is the message of docs/architecture.md, Outcomes, for a truncated stream.
const MsgTruncated = "The server closed the stream before finishing (no [DONE])."

// ErrStall is the cause of the error that ends a stream silent for longer than StallTimeout.
var ErrStall = errors.New("stream: no data within the stall timeout")

// ErrConnectionDropped is the cause of the error that ends a stream whose connection broke
// (reset, or cut in the middle of the body) before the reply finished.
var ErrConnectionDropped = errors.New("stream: the connection dropped mid-stream")

// ErrTruncated is the cause of a truncated stream's error.
var ErrTruncated = errors.New("stream: the stream ended without finish_reason or [DONE]")

// ErrUnsupportedFormat is the cause of the error for a stream in a wire format other than
// OpenAI chat completions.
var ErrUnsupportedFormat = errors.New("stream: unsupported wire format")

// serverError is an error object the server sent inside a stream (an `event: error` record
// or a chunk with a top-level "error").
func serverError(raw []byte) *Error {
	detail := ProviderMessage(raw)
	if detail == "" && !json.Valid(raw) {
		detail = format.OneLine(string(raw), 300)
	}
	msg := "The server sent an error"
	if detail != "" {
		msg += ": " + detail
	}
	return &Error{Message: msg, Detail: detail,
		Cause: fmt.Errorf("stream: error from the server: %s", format.OneLine(string(raw), 500))}
}

// ProviderMessage extracts the human message from an error body or error object: OpenAI,
// Azure, Groq, Anthropic and llama.cpp {"error":{"message"}}, {"error":"text"}, vLLM
// {"message"}, FastAPI {"detail"}; OpenRouter's metadata.raw (the upstream provider's own
// words) is appended. It returns "" when there is nothing to show.
func ProviderMessage(raw []byte) string {
	var list []json.RawMessage // Google's APIs wrap the error object in an array
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' && json.Unmarshal(t, &list) == nil && len(list) > 0 && len(list[0]) > 0 && list[0][0] == '{' {
		return ProviderMessage(list[0])
	}
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message wireString      `json:"message"`
		Detail  wireString      `json:"detail"`
	}
	if json.Unmarshal(raw, &body) != nil {
		var s wireString // a bare JSON string is the message
		if json.Valid(raw) {
			_ = s.UnmarshalJSON(raw)
		}
		return format.OneLine(s.S, 500)
	}
	if len(body.Error) > 0 && body.Error[0] == '{' {
		var obj struct {
			Message  wireString      `json:"message"`
			Code     json.RawMessage `json:"code"`
			Type     wireString      `json:"type"`
			Metadata struct {
				Raw          wireString `json:"raw"`
				ProviderName wireString `json:"provider_name"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(body.Error, &obj)
		msg := obj.Message.S
		if raw := obj.Metadata.Raw.S; raw != "" && raw != msg {
			if name := obj.Metadata.ProviderName.S; name != "" {
				raw = name + ": " + raw
			}
			msg = strings.TrimRight(msg, ". ") + " (" + raw + ")"
		}
		if msg == "" && obj.Type.S != "" {
			msg = obj.Type.S
		}
		if msg == "" && len(obj.Code) > 0 && string(obj.Code) != "null" {
			msg = "error code " + strings.Trim(string(obj.Code), `"`)
		}
		return format.OneLine(msg, 500)
	}
	var s wireString
	_ = s.UnmarshalJSON(body.Error)
	for _, m := range []string{s.S, body.Message.S, body.Detail.S} {
		if m != "" {
			return format.OneLine(m, 500)
		}
	}
	return ""
}
