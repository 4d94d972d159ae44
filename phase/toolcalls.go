package phase

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"unsafe"
)

// CallStatus is where a tool call is in its life: pending → running → done, or error from
// pending or running. done and error are final.
type CallStatus string

const (
	CallPending CallStatus = "pending" // arguments still streaming
	CallRunning CallStatus = "running" // arguments complete and parsed; the tool may run
	CallDone    CallStatus = "done"    // the result is in
	CallError   CallStatus = "error"   // bad arguments, or the tool failed
)

// ToolCall is one call as the machine knows it. Args is set when the call becomes running:
// its arguments parsed once (ParseArgs), for every consumer to read.
type ToolCall struct {
	ID, Name, ArgsText string
	Args               Args
	Status             CallStatus
	Result             any
	Error              any
}

// CallEventType names what happened to a call.
type CallEventType string

const (
	CallStart  CallEventType = "start"  // a new call, pending
	CallDelta  CallEventType = "delta"  // more argument text
	CallReady  CallEventType = "ready"  // the arguments are complete
	CallResult CallEventType = "result" // the tool returned
	CallFail   CallEventType = "error"  // the call failed
)

// CallEvent is one event for the call whose id it carries.
type CallEvent struct {
	Type          CallEventType
	ID, Name      string
	ArgsTextDelta string
	Result, Error any
}

// ToolCalls routes CallEvents by id to their calls and moves each through its states. Events a
// call's state does not accept are ignored, never fatal: an unknown id, a duplicate start, a
// delta after ready, a result while pending, anything after done or error.
// The zero value is not usable; call NewToolCalls. Not safe for concurrent use.
type ToolCalls struct {
	byID  map[string]*callEntry
	order []*callEntry
	last  *callEntry // the call the previous event went to: deltas come in runs
}

type callEntry struct {
	call    ToolCall // ArgsText is filled from args on the way out
	args    []byte   // only appended to, so snapshots can share it (see snapshot)
	pending bool     // call.Status == CallPending, kept as a flag for the per-delta path
}

// NewToolCalls returns an empty machine.
func NewToolCalls() *ToolCalls {
	return &ToolCalls{byID: make(map[string]*callEntry)}
}

// ErrInvalidArgs is wrapped by the Error of a call whose arguments were not valid JSON.
var ErrInvalidArgs = errors.New("the tool arguments are not valid JSON")

// ArgsError is the error of arguments that are not valid JSON; Detail says what is wrong
// ("unexpected EOF"). It matches ErrInvalidArgs.
type ArgsError struct{ Detail string }

func (e *ArgsError) Error() string        { return ErrInvalidArgs.Error() + ": " + e.Detail }
func (e *ArgsError) Is(target error) bool { return target == ErrInvalidArgs }

// Apply folds one event in. It costs O(len(ev.ArgsTextDelta)), except ready, which parses the
// call's whole argument text once.
func (c *ToolCalls) Apply(ev CallEvent) {
	if ev.Type == CallDelta { // the per-token path: a lookup and an append
		if e := c.route(ev.ID); e != nil && e.pending {
			e.args = append(e.args, ev.ArgsTextDelta...)
		}
		return
	}
	if ev.Type == CallStart {
		c.start(ev.ID, ev.Name)
		return
	}
	e := c.route(ev.ID)
	if e == nil {
		return
	}
	call := &e.call
	switch ev.Type {
	case CallReady:
		if e.pending {
			call.Args, call.Error = ParseArgs(e.argsText())
			call.Status = CallRunning
			if call.Error != nil {
				call.Status = CallError
			}
		}
	case CallResult:
		if call.Status == CallRunning {
			call.Status, call.Result = CallDone, ev.Result
		}
	case CallFail:
		if call.Status == CallPending || call.Status == CallRunning {
			call.Status, call.Error = CallError, ev.Error
		}
	}
	e.pending = call.Status == CallPending
}

// route finds the call an event is for; nil for an unknown id.
func (c *ToolCalls) route(id string) *callEntry {
	if e := c.last; e != nil && e.call.ID == id {
		return e
	}
	e := c.byID[id]
	if e != nil {
		c.last = e
	}
	return e
}

func (c *ToolCalls) start(id, name string) {
	if _, dup := c.byID[id]; dup || id == "" {
		return
	}
	e := &callEntry{call: ToolCall{ID: id, Name: name, Status: CallPending}, pending: true}
	c.byID[id] = e
	c.order = append(c.order, e)
	c.last = e
}

// Get returns the call with this id.
func (c *ToolCalls) Get(id string) (ToolCall, bool) {
	e, ok := c.byID[id]
	if !ok {
		return ToolCall{}, false
	}
	return e.snapshot(), true
}

// List returns every call in the order they started.
func (c *ToolCalls) List() []ToolCall {
	out := make([]ToolCall, len(c.order))
	for i, e := range c.order {
		out[i] = e.snapshot()
	}
	return out
}

// Len is the number of calls started.
func (c *ToolCalls) Len() int { return len(c.order) }

func (e *callEntry) snapshot() ToolCall {
	call := e.call
	call.ArgsText = e.argsText()
	return call
}

// argsText returns the argument text without copying it: args is only ever appended to, so
// the bytes a returned string covers are never written again (a re-allocation leaves them in
// the old array).
func (e *callEntry) argsText() string {
	if len(e.args) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(e.args), len(e.args))
}

// Args are a call's arguments as a tool receives them: always an object. Blank text is {}; an
// object is kept as written; any other JSON value v (a bare string, number, list, null) is
// wrapped as {"value": v} (docs/architecture.md, Tool calls).
type Args struct {
	Object map[string]any // decoded, numbers as json.Number; nil only when the text was not JSON
	JSON   string         // Object as JSON text: the call's own text, trimmed, when it was an object
}

// ParseArgs parses a call's complete argument text, which must be blank or exactly one JSON
// value, into Args. This is the one place arguments are decoded and non-objects wrapped.
func ParseArgs(text string) (Args, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Args{Object: map[string]any{}, JSON: "{}"}, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return Args{}, &ArgsError{Detail: err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return Args{}, &ArgsError{Detail: "invalid character after top-level value"}
	}
	if obj, ok := v.(map[string]any); ok {
		return Args{Object: obj, JSON: text}, nil
	}
	return Args{Object: map[string]any{"value": v}, JSON: `{"value":` + text + `}`}, nil
}
