package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// ReplayFormat is what Replay prints.
type ReplayFormat int

const (
	ReplayText  ReplayFormat = iota // the reply for people: content, each call name(args), the outcome
	ReplayJSON                      // the one object of docs/architecture.md, Command line
	ReplayTrace                     // one JSON object per SSE event, then one for the end
)

// Replay runs a recorded response body (an SSE stream, or a JSON answer or error object)
// through the same pipeline as a live stream, with no network, and prints it to w.
//
// The trace prints, per event, {"n","event","data","kind","phase"} where phase is the chat
// phase (phase.Reduce from a submit) after the frame; then one end line with n 0, kind
// "done", "error" or "ignore", the phase after the end of the stream, and three more fields:
// "outcome", "error" (the message or null) and "malformed" (how many payloads were skipped).
// An event that the recording ended inside (no blank line after it) also has
// "unterminated": true.
//
// ReplayText prints model text, which is untrusted: clean (the chat's one sanitiser, view/safe
// Text) makes it safe for a terminal. The JSON formats escape everything and ignore clean.
//
// The stream is decoded as format as; an empty one is detected from the first event (see DetectWire).
func Replay(r io.Reader, as wire.Wire, format ReplayFormat, w io.Writer, clean func(string) string) (wire.Result, error) {
	f := newFeed(r, "", nil, func(err error) error {
		if err == io.EOF {
			return nil
		}
		return &wire.Error{Message: "The recording could not be read: " + err.Error(), Cause: err}
	})
	f.wire = as
	f.notSSEFile()
	if f.fr != nil {
		f.fr.pace = replayRead
	}
	enc := json.NewEncoder(c1Escaper{w})
	enc.SetEscapeHTML(false)
	state := phase.Reduce(phase.State{}, phase.Event{Kind: phase.KindSubmit})
	for u, ok := f.next(); ok; u, ok = f.next() {
		for _, ev := range u.Events {
			state = phase.Reduce(state, ev)
		}
		if format != ReplayTrace {
			continue
		}
		line := traceLine{N: u.N, Event: u.Frame.Event, Data: u.Frame.Data, Kind: u.Kind, Phase: state.Phase.String()}
		line.Unterminated = u.N > 0 && f.fr != nil && f.fr.tail
		if u.N == 0 {
			res := f.Result()
			line.Outcome, line.Malformed = &res.Outcome, &res.Malformed
			line.Error, _ = json.Marshal(errorText(res.Err))
		}
		if err := enc.Encode(line); err != nil {
			return f.Result(), err
		}
	}
	res := f.Result()
	switch format {
	case ReplayJSON:
		return res, writeObject(c1Escaper{w}, replayObject(res))
	case ReplayText:
		return res, writeText(w, res, clean)
	}
	return res, nil
}

// replayRead is the most Replay reads of a recording at a time while its events are small:
// a file has no server to wait on, so larger pieces only save reads.
const replayRead = 64 << 10

type traceLine struct {
	N     int       `json:"n"`
	Event string    `json:"event"`
	Data  string    `json:"data"`
	Kind  wire.Kind `json:"kind"`
	Phase string    `json:"phase"`
	// Unterminated marks the last event of a recording that ended before its blank line.
	Unterminated bool            `json:"unterminated,omitempty"`
	Outcome      *wire.Outcome   `json:"outcome,omitempty"` // end line only, like the two below
	Error        json.RawMessage `json:"error,omitempty"`
	Malformed    *int            `json:"malformed,omitempty"`
}

// ReplayObject is the JSON form of a Result printed by `replay --json` (docs/architecture.md, Command line).
type ReplayObject struct {
	Content      string       `json:"content"`
	Reasoning    string       `json:"reasoning"`
	ToolCalls    []ReplayCall `json:"tool_calls"`
	FinishReason string       `json:"finish_reason"`
	Usage        *wire.Usage  `json:"usage"`
	Outcome      wire.Outcome `json:"outcome"`
	Error        *string      `json:"error"`
}

// ReplayCall is one tool call in a ReplayObject.
type ReplayCall struct {
	Index     int    `json:"index"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func replayObject(r wire.Result) ReplayObject {
	out := ReplayObject{
		Content: r.Message.Text(), Reasoning: r.Message.Reasoning(), ToolCalls: []ReplayCall{},
		FinishReason: r.FinishReason, Usage: r.Usage, Outcome: r.Outcome, Error: errorText(r.Err),
	}
	for _, tc := range r.Message.Calls() {
		out.ToolCalls = append(out.ToolCalls, ReplayCall{Index: tc.Index, ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
	}
	return out
}

// writeObject writes o as a json.Encoder with SetEscapeHTML(false) and SetIndent("", "  ")
// does, but with no indenting pass over the reply's text: each string is encoded once, and
// the object's few fixed lines are written here.
func writeObject(w io.Writer, o ReplayObject) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	str := func(s string) {
		enc.Encode(s) // a string always encodes
		b.Truncate(b.Len() - 1)
	}
	b.WriteString("{\n  \"content\": ")
	str(o.Content)
	b.WriteString(",\n  \"reasoning\": ")
	str(o.Reasoning)
	b.WriteString(",\n  \"tool_calls\": [")
	for i, c := range o.ToolCalls {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n    {\n      \"index\": %d,\n      \"id\": ", c.Index)
		str(c.ID)
		b.WriteString(",\n      \"name\": ")
		str(c.Name)
		b.WriteString(",\n      \"arguments\": ")
		str(c.Arguments)
		b.WriteString("\n    }")
	}
	if len(o.ToolCalls) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n  \"finish_reason\": ")
	str(o.FinishReason)
	b.WriteString(",\n  \"usage\": ")
	usage, err := json.MarshalIndent(o.Usage, "  ", "  ")
	if err != nil {
		return err
	}
	b.Write(usage)
	b.WriteString(",\n  \"outcome\": ")
	str(string(o.Outcome))
	b.WriteString(",\n  \"error\": ")
	if o.Error == nil {
		b.WriteString("null")
	} else {
		str(*o.Error)
	}
	b.WriteString("\n}\n")
	_, err = w.Write(b.Bytes())
	return err
}

func errorText(e *wire.Error) *string {
	if e == nil {
		return nil
	}
	return &e.Message
}

// writeText prints the reply for a terminal: content, each call as name(args), and a last
// line with the outcome. Model text is untrusted: it goes through clean.
func writeText(w io.Writer, r wire.Result, clean func(string) string) error {
	var b strings.Builder
	if c := r.Message.Text(); c != "" {
		b.WriteString(clean(c))
		if !strings.HasSuffix(c, "\n") {
			b.WriteByte('\n')
		}
	}
	for _, tc := range r.Message.Calls() {
		fmt.Fprintf(&b, "%s(%s)\n", clean(tc.Name), clean(tc.Arguments))
	}
	var notes []string
	if r.FinishReason != "" {
		notes = append(notes, "finish_reason "+clean(r.FinishReason))
	}
	if u := r.Usage; u != nil {
		notes = append(notes, fmt.Sprintf("%d prompt + %d completion tokens", u.PromptTokens, u.CompletionTokens))
	}
	if n := len(r.Message.Reasoning()); n > 0 {
		notes = append(notes, fmt.Sprintf("%d bytes of reasoning not shown", n))
	}
	if r.Malformed > 0 {
		notes = append(notes, fmt.Sprintf("%d malformed payloads skipped", r.Malformed))
	}
	fmt.Fprintf(&b, "-- %s", r.Outcome)
	if r.Err != nil {
		b.WriteString(": " + clean(r.Err.Message))
	}
	if len(notes) > 0 {
		b.WriteString(" (" + strings.Join(notes, "; ") + ")")
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// c1Escaper writes JSON with the C1 control characters (U+0080–U+009F), which encoding/json
// leaves raw and a terminal may obey, written as \u escapes. In JSON text they can only stand
// inside strings, so the escape keeps the value.
type c1Escaper struct{ w io.Writer }

func (c c1Escaper) Write(b []byte) (int, error) {
	if !bytes.Contains(b, []byte{0xc2}) {
		return c.w.Write(b)
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); i++ {
		if b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f {
			out = fmt.Appendf(out, `\u%04x`, rune(b[i+1]))
			i++
			continue
		}
		out = append(out, b[i])
	}
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}
