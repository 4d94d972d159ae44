package phase

import (
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"time"
	"unsafe"
)

// CallStatus is where a tool call is in its life (docs/architecture.md, Tool calls):
//
//	pending → ready → asking | queued → running → done | error
//
// and, from any state before a final one, interrupted; from asking, declined; from ready,
// error (the call cannot run). done, error, declined and interrupted are final.
type CallStatus string

const (
	CallPending     CallStatus = "pending"     // arguments still streaming
	CallArgsReady   CallStatus = "ready"       // arguments complete and parsed; not yet asked about, queued or run
	CallAsking      CallStatus = "asking"      // waiting for the user's approval
	CallQueued      CallStatus = "queued"      // may run, waiting for a free slot
	CallRunning     CallStatus = "running"     // handed over to run
	CallDone        CallStatus = "done"        // the tool returned its result
	CallError       CallStatus = "error"       // bad arguments, a refusal, or the tool failed
	CallDeclined    CallStatus = "declined"    // the user said no
	CallInterrupted CallStatus = "interrupted" // ended by Stop, a failed request or a cut-off reply
)

// Final reports whether nothing can change the call any more.
func (s CallStatus) Final() bool {
	return s == CallDone || s == CallError || s == CallDeclined || s == CallInterrupted
}

// Failed reports whether the call ended without a result the tool gave as a success.
func (s CallStatus) Failed() bool { return s.Final() && s != CallDone }

// ToolResult is what a tool gave back, or why a call has no result of its own: what the
// model reads. IsError says the call failed; Duration is how long the tool ran (0 when it
// did not run).
type ToolResult struct {
	Output   string
	IsError  bool
	Duration time.Duration
}

// ToolCall is one call as the machine knows it: a snapshot, copied out.
type ToolCall struct {
	ID, Name, ArgsText string
	// Args is set once the call is ready: its arguments parsed once (ParseArgs), for every
	// consumer to read.
	Args   Args
	Status CallStatus
	// Result is set when the call is final: the tool's, or the words of why it has none
	// (NotRun, Interruption).
	Result ToolResult
	// NotRun says why a declined or refused call did not run; "" when no such reason applies.
	NotRun NotRun
	// Interruption says why an interrupted call was ended, and in which state.
	Interruption Interruption
	// Started is when the call was handed over to run; zero when it never was.
	Started time.Time
	// AskPlace is the call's place among the approvals waiting (1 is the one asked), AskOf
	// how many wait; both 0 unless asking.
	AskPlace, AskOf int
	// QueuedBehind is how many calls are running while this one is queued; 0 unless queued.
	QueuedBehind int
}

// Answered reports whether the call is final with an answer the model is to read: a result,
// a refusal, a decline, or the interruption of a call that was running. A call that is not
// final, or was interrupted before it ran (its arguments cut off, Stop while it waited),
// has none: the history leaves it out.
func (c ToolCall) Answered() bool {
	switch c.Status {
	case CallDone, CallError, CallDeclined:
		return true
	case CallInterrupted:
		return c.Interruption.Stage == CallRunning
	}
	return false
}

// CallEventType names what happened to a call.
type CallEventType string

const (
	CallStart     CallEventType = "start"     // a new call, pending
	CallDelta     CallEventType = "delta"     // more argument text
	CallReady     CallEventType = "ready"     // the arguments are complete
	CallAsk       CallEventType = "ask"       // the user is asked to approve it
	CallQueue     CallEventType = "queue"     // it may run once a slot is free
	CallRun       CallEventType = "run"       // it is handed over to run, At
	CallResult    CallEventType = "result"    // the tool returned Result
	CallRefuse    CallEventType = "refuse"    // it cannot run: NotRun, or Result's words
	CallDecline   CallEventType = "decline"   // the user declined it
	CallInterrupt CallEventType = "interrupt" // Why ended it before it was over
)

// CallEvent is one event for the call whose id it carries.
type CallEvent struct {
	Type          CallEventType
	ID, Name      string
	ArgsTextDelta string
	Result        ToolResult   // result; refuse without NotRun
	NotRun        NotRun       // refuse
	Why           Interruption // interrupt (its Stage is the machine's to set)
	At            time.Time    // run
}

// ToolCalls routes CallEvents by id to their calls and moves each through its states. Events a
// call's state does not accept are ignored, never fatal: an unknown id, a duplicate start, a
// delta after ready, a result while not running, anything after a final state.
// It also keeps the order of the approvals waiting and of the queued calls, and counts the
// running ones. The zero value is not usable; call NewToolCalls. Not safe for concurrent use.
type ToolCalls struct {
	byID    map[string]*callEntry
	order   []*callEntry
	last    *callEntry   // the call the previous event went to: deltas come in runs
	asking  []*callEntry // oldest first
	queued  []*callEntry // oldest first
	running int
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

// ErrInvalidArgs is wrapped by the error of arguments that were not valid JSON.
var ErrInvalidArgs = errors.New("the tool arguments are not valid JSON")

// ArgsError is the error of arguments that are not valid JSON; Detail says what is wrong
// ("unexpected EOF"). It matches ErrInvalidArgs.
type ArgsError struct{ Detail string }

func (e *ArgsError) Error() string        { return ErrInvalidArgs.Error() + ": " + e.Detail }
func (e *ArgsError) Is(target error) bool { return target == ErrInvalidArgs }

// Apply folds one event in. It costs O(len(ev.ArgsTextDelta)), except ready, which parses the
// call's whole argument text once, and the events that change the approval or slot queues,
// which cost O(calls waiting).
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
	switch st := call.Status; {
	case ev.Type == CallReady && st == CallPending:
		args, err := ParseArgs(e.argsText())
		call.Args, call.Status = args, CallArgsReady
		if err != nil {
			call.Status, call.Result = CallError, ToolResult{Output: err.Error(), IsError: true}
		}
	case ev.Type == CallAsk && st == CallArgsReady:
		call.Status = CallAsking
		c.asking = append(c.asking, e)
	case ev.Type == CallQueue && (st == CallArgsReady || st == CallAsking):
		c.leave(e)
		call.Status = CallQueued
		c.queued = append(c.queued, e)
	case ev.Type == CallRun && (st == CallArgsReady || st == CallAsking || st == CallQueued):
		c.leave(e)
		call.Status, call.Started = CallRunning, ev.At
		c.running++
	case ev.Type == CallResult && st == CallRunning:
		c.running--
		call.Status, call.Result = CallDone, ev.Result
		if ev.Result.IsError {
			call.Status = CallError
		}
	case ev.Type == CallRefuse && st == CallArgsReady:
		call.Status, call.NotRun, call.Result = CallError, ev.NotRun, ToolResult{Output: ev.Result.Output, IsError: true}
		if ev.NotRun != "" {
			call.Result.Output = ev.NotRun.Text()
		}
	case ev.Type == CallDecline && st == CallAsking:
		c.leave(e)
		call.Status, call.NotRun = CallDeclined, NotRunDeclined
		call.Result = ToolResult{Output: NotRunDeclined.Text(), IsError: true}
	case ev.Type == CallInterrupt && !st.Final():
		c.leave(e)
		if st == CallRunning {
			c.running--
		}
		why := ev.Why
		why.Stage = st
		call.Status, call.Interruption = CallInterrupted, why
		call.Result = ToolResult{Output: why.Text(), IsError: true}
	}
	e.pending = call.Status == CallPending
}

// leave takes e out of the approval and slot queues.
func (c *ToolCalls) leave(e *callEntry) {
	if i := slices.Index(c.asking, e); i >= 0 {
		c.asking = slices.Delete(c.asking, i, i+1)
	}
	if i := slices.Index(c.queued, e); i >= 0 {
		c.queued = slices.Delete(c.queued, i, i+1)
	}
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

// Interrupt ends every call that is not final with why (each call's Stage is the state it
// was in). Final calls keep their result.
func (c *ToolCalls) Interrupt(why Interruption) {
	for _, e := range c.order {
		if !e.call.Status.Final() {
			c.Apply(CallEvent{Type: CallInterrupt, ID: e.call.ID, Why: why})
		}
	}
}

// Get returns the call with this id.
func (c *ToolCalls) Get(id string) (ToolCall, bool) {
	e, ok := c.byID[id]
	if !ok {
		return ToolCall{}, false
	}
	return c.snapshot(e), true
}

// List returns every call in the order they started.
func (c *ToolCalls) List() []ToolCall {
	out := make([]ToolCall, len(c.order))
	for i, e := range c.order {
		out[i] = c.snapshot(e)
	}
	return out
}

// Len is the number of calls started.
func (c *ToolCalls) Len() int { return len(c.order) }

// Running is how many calls are running.
func (c *ToolCalls) Running() int { return c.running }

// Asking returns the call whose approval is asked (the oldest waiting), if any.
func (c *ToolCalls) Asking() (ToolCall, bool) {
	if len(c.asking) == 0 {
		return ToolCall{}, false
	}
	return c.snapshot(c.asking[0]), true
}

// AskingIDs are the ids of the calls waiting for approval, oldest first.
func (c *ToolCalls) AskingIDs() []string {
	ids := make([]string, len(c.asking))
	for i, e := range c.asking {
		ids[i] = e.call.ID
	}
	return ids
}

// Waiting returns the calls asking for approval and then the queued ones, each in order: the
// calls whose snapshots an event for another call can change (their places, the count of
// running calls).
func (c *ToolCalls) Waiting() []ToolCall {
	out := make([]ToolCall, 0, len(c.asking)+len(c.queued))
	for _, e := range c.asking {
		out = append(out, c.snapshot(e))
	}
	for _, e := range c.queued {
		out = append(out, c.snapshot(e))
	}
	return out
}

// NextQueued returns the oldest queued call, if any.
func (c *ToolCalls) NextQueued() (ToolCall, bool) {
	if len(c.queued) == 0 {
		return ToolCall{}, false
	}
	return c.snapshot(c.queued[0]), true
}

// Outstanding returns the first call that is not final yet, or false when all are.
func (c *ToolCalls) Outstanding() (ToolCall, bool) {
	for _, e := range c.order {
		if !e.call.Status.Final() {
			return c.snapshot(e), true
		}
	}
	return ToolCall{}, false
}

func (c *ToolCalls) snapshot(e *callEntry) ToolCall {
	call := e.call
	call.ArgsText = e.argsText()
	switch call.Status {
	case CallAsking:
		call.AskPlace, call.AskOf = slices.Index(c.asking, e)+1, len(c.asking)
	case CallQueued:
		call.QueuedBehind = c.running
	}
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
