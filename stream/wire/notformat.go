package wire

import (
	"encoding/json"
	"strings"
)

// formatSeen follows, for a decoder of one wire format, whether any event of that format
// arrived and, if not, what the first event looked like: a stream that ends without its
// format's end event is then told apart from an answer in another format (or none at all).
type formatSeen struct {
	own    bool // an event of the decoder's format arrived
	events int  // events looked at before that
	looks  Wire // the format the first event looked like; "" when not recognisable
}

// see looks at one frame; once an event of wire arrived nothing more is looked at.
func (s *formatSeen) see(wire Wire, f Frame) {
	if s.own || f.Event == "error" {
		return
	}
	w, ok := looksLike(f)
	switch {
	case ok && w == wire:
		s.own = true
	case ok && s.looks == "":
		s.looks = w
	}
	s.events++
}

// notFormat is the error of a stream that ended with no event of wire, or nil when one came.
func (s *formatSeen) notFormat(wire Wire) *Error {
	if s.own {
		return nil
	}
	var msg string
	switch {
	case s.events == 0:
		msg = "The answer has no server-sent events (no data: lines), so it is not a " + wire.OrChat().Label() + " stream"
	case s.looks != "":
		msg = "The answer is not " + wire.OrChat().Label() + " events: it looks like " + s.looks.Label() +
			" (choose that wire format: --wire " + string(s.looks) + ")"
	default:
		msg = "The answer is not " + wire.OrChat().Label() + " events: none of its events is one of that format"
	}
	return &Error{Message: msg + ".", Cause: ErrUnsupportedFormat}
}

// looksLike says which format one event is in, if it can tell: by the SSE event name, by the
// data's "type", or a Chat Completions chunk (choices, or [DONE]).
func looksLike(f Frame) (Wire, bool) {
	if w, ok := wireOfType(f.Event); ok {
		return w, true
	}
	data := strings.TrimSpace(f.Data)
	if data == "[DONE]" {
		return WireChat, true
	}
	if !strings.HasPrefix(data, "{") {
		return "", false
	}
	var head struct {
		Type    string          `json:"type"`
		Choices json.RawMessage `json:"choices"`
		Object  string          `json:"object"`
	}
	if json.Unmarshal([]byte(data), &head) != nil {
		return "", false
	}
	if head.Choices != nil || head.Object == "chat.completion.chunk" {
		return WireChat, true
	}
	return wireOfType(head.Type)
}
