package wire

import (
	"encoding/json"
	"errors"

	"github.com/phasechat/phasechat/internal/format"
)

// decodeNativeAnswer reads a stream:false answer in the Anthropic Messages or the Responses
// format; ok is false for any other body. The answer is applied to the same decoder a stream
// uses, as the events a stream of it would have sent, so streamed equals buffered.
func decodeNativeAnswer(data []byte) (r Result, e *Error, ok bool) {
	var head struct {
		Type    string          `json:"type"`
		Object  string          `json:"object"`
		Content json.RawMessage `json:"content"`
		Output  json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(data, &head); err != nil && !errors.As(err, new(*json.UnmarshalTypeError)) {
		return Result{}, nil, false
	}
	switch {
	case head.Type == "message" && head.Content != nil:
		r, e = decodeAnthropicMessage(data)
	case head.Object == "response":
		r, e = decodeResponse(data)
	default:
		return Result{}, nil, false
	}
	return r, e, true
}

func notAnAnswer(what string, err error) *Error {
	return &Error{Message: "the server answered with JSON that is not " + what + ": " + format.OneLine(err.Error(), 200), Cause: err}
}

// decodeAnthropicMessage reads an Anthropic message object.
func decodeAnthropicMessage(data []byte) (Result, *Error) {
	var msg struct {
		Content    []anthropicContent `json:"content"`
		StopReason string             `json:"stop_reason"`
		Usage      *anthropicUsage    `json:"usage"`
	}
	if err := json.Unmarshal(data, &msg); err != nil && !errors.As(err, new(*json.UnmarshalTypeError)) {
		return Result{}, notAnAnswer("an Anthropic message", err)
	}
	d := newAnthropicDecoder()
	var u Update
	ev := &anthropicEvent{Type: "message_start"}
	ev.Message.Usage = msg.Usage
	d.apply(&u, ev, nil)
	for i := range msg.Content {
		d.apply(&u, &anthropicEvent{Type: "content_block_start", Index: i, ContentBlock: msg.Content[i]}, nil)
		d.apply(&u, &anthropicEvent{Type: "content_block_stop", Index: i}, nil)
	}
	ev = &anthropicEvent{Type: "message_delta"}
	ev.Delta.StopReason = msg.StopReason
	d.apply(&u, ev, nil)
	d.apply(&u, &anthropicEvent{Type: "message_stop"}, nil)
	return d.Result(), nil
}

// decodeResponse reads a Responses response object. A failed response is its error; one that
// has not finished (a background response still queued or in progress) is an error too.
func decodeResponse(data []byte) (Result, *Error) {
	var resp struct {
		responsesBody
		Output []json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(data, &resp); err != nil && !errors.As(err, new(*json.UnmarshalTypeError)) {
		return Result{}, notAnAnswer("a response", err)
	}
	end := responsesEvent{Response: &resp.responsesBody}
	switch resp.Status {
	case "completed", "":
		end.Type = "response.completed"
	case "incomplete":
		end.Type = "response.incomplete"
	case "failed", "cancelled":
		end.Type = "response.failed"
	default:
		return Result{}, &Error{Message: "the server answered with a response that has not finished (status " +
			format.OneLine(resp.Status, 40) + ")", Cause: errors.New("stream: response status " + resp.Status)}
	}
	d := newResponsesDecoder()
	var u Update
	for i, item := range resp.Output {
		d.apply(&u, &responsesEvent{Type: "response.output_item.added", OutputIndex: i, Item: item}, nil)
		d.apply(&u, &responsesEvent{Type: "response.output_item.done", OutputIndex: i, Item: item}, nil)
	}
	d.apply(&u, &end, nil)
	r := d.Result()
	if r.Outcome == OutcomeError {
		return Result{}, r.Err
	}
	return r, nil
}

// DecodeAnswer reads a stream:false answer: a chat.completion, an Anthropic message, a
// Responses response, or an error object.
func DecodeAnswer(data []byte) (Result, *Error) {
	if r, e, ok := decodeNativeAnswer(data); ok {
		return r, e
	}
	var resp wireChunk
	if err := json.Unmarshal(data, &resp); err != nil && !errors.As(err, new(*json.UnmarshalTypeError)) {
		return Result{}, &Error{Message: "the server answered with JSON that could not be read: " +
			format.OneLine(err.Error(), 200), Cause: err}
	}
	if len(resp.Error) > 0 && string(resp.Error) != "null" {
		return Result{}, serverError(resp.Error)
	}
	var choice *wireChoice
	for i := range resp.Choices {
		if c := &resp.Choices[i]; !c.Index.Set || c.Index.N == 0 {
			choice = c
			break
		}
	}
	if choice == nil || choice.Message == nil {
		return Result{}, &Error{Message: "the server answered with JSON that is not a chat completion",
			Cause: errors.New("stream: no choices[0].message in the answer")}
	}
	r := Result{FinishReason: choice.FinishReason.S, Outcome: OutcomeComplete}
	r.Message = messageFromWire(choice.Message)
	calls := r.Message.Calls()
	DistinctIDs(calls)
	r.Message.SetCalls(calls)
	r.Message.Role = "assistant"
	if resp.Usage != nil {
		usage := resp.Usage.usage()
		r.Usage = &usage
	}
	return r, nil
}
