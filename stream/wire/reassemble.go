package wire

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/phasechat/phasechat/phase"
)

// assembler rebuilds tool calls from streamed fragments (docs/architecture.md, Tool calls) and emits the
// phase.CallEvents that move each call through phase.ToolCalls, in an order the machine
// accepts: one start (once the call has both an id and a name, or when it must become ready),
// then deltas, then exactly one ready or error, and nothing after that.
//
// Invariants: a call's Arguments is the concatenation of every argument fragment routed to it
// (an argument sent as a JSON value rather than a string contributes its JSON text); the
// deltas emitted for a call are exactly its arguments up to the moment it became ready (text
// that arrives later stays in the reply only). Each fragment costs O(its size).
type assembler struct {
	calls   []*call          // in order of first appearance
	byWire  routes           // the call each index currently routes to
	started map[string]*call // started calls by id (ids are unique among them)
	current *call            // the call the last fragment went to
	next    int              // the next unused Index
	full    bool             // an index of MaxInt was taken: next cannot grow
	frozen  bool             // an error was seen: nothing more becomes ready
	// touched holds, in order of appearance, the calls that took a fragment since over last
	// looked at them. Every call not final and not in it is neither closed nor invalid, so
	// over looks at these alone: O(1) per fragment however many calls are open.
	touched []*call
}

type call struct {
	wire     int // the wire index that last routed here (-1: none)
	index    int
	seq      int // its place in calls
	id, name string
	args     []byte
	extra    json.RawMessage // the first extra_content object a fragment carried
	lex      lexer
	started  bool
	final    bool // ready or failed: no more events
	touched  bool // in assembler.touched
}

// fragment routes one tool-call fragment and applies it. It returns the call it went to, or
// nil for a fragment that names no call and carries nothing.
func (a *assembler) fragment(f *wireToolCall, out []phase.CallEvent) (*call, []phase.CallEvent) {
	c := a.route(f)
	if c == nil {
		return nil, out
	}
	if c != a.current {
		// Another call's fragment: the calls before it may be over. (While fragments keep
		// going to one call, no other call can change, so this costs nothing per delta.)
		out = a.over(c, out)
		a.current = c
	}
	if c.id == "" && f.ID.S != "" {
		c.id = f.ID.S
	}
	if c.name == "" && f.Function.Name.S != "" {
		c.name = f.Function.Name.S
	}
	if c.extra == nil && f.ExtraContent != nil {
		c.extra = extraContent(f.ExtraContent)
	}
	text := f.Function.Arguments.Text
	if len(c.args)+len(text) > cap(c.args) { // double: append's 1.25x for large slices copies 5x
		grown := make([]byte, len(c.args), 2*(len(c.args)+len(text)))
		copy(grown, c.args)
		c.args = grown
	}
	c.args = append(c.args, text...)
	c.lex.Feed(text)
	a.touch(c)
	switch {
	case c.final:
	case c.started:
		if text != "" {
			out = append(out, phase.CallEvent{Type: phase.CallDelta, ID: c.id, ArgsTextDelta: text})
		}
	case c.id != "" && c.name != "":
		out = a.start(c, out)
	}
	return c, out
}

// route finds the call a fragment belongs to, creating it when the fragment opens a new one.
// An index routes to the call holding it unless the fragment brings a different id (a new
// call reusing the index). A missing index (or -1) means the current call, unless the fragment
// brings a different id, or a name while the current call is named and its arguments are
// closed (a second whole call with neither index nor id).
func (a *assembler) route(f *wireToolCall) *call {
	id := f.ID.S
	if f.Index.Set && f.Index.N >= 0 {
		w := f.Index.N
		c := a.current
		if c == nil || c.wire != w {
			c = a.byWire.get(w)
		}
		if c == nil || (id != "" && c.id != "" && id != c.id) {
			c = a.newCall(w)
			a.byWire.set(w, c)
		}
		c.wire = w
		return c
	}
	c := a.current
	switch {
	case c == nil:
	case id != "" && c.id != "" && id != c.id:
		c = nil
	case id == "" && f.Function.Name.S != "" && c.name != "" && c.lex.Closed():
		c = nil
	}
	if c == nil && id == "" && f.Function.Name.S == "" && f.Function.Arguments.Text == "" {
		return nil // nothing to attach, and no call to attach it to
	}
	if c == nil {
		c = a.newCall(-1)
	}
	return c
}

// newCall adds a call with the wire index w, or the next unused index when w is taken or -1.
// The call is routed to by its index from now on (so a call that came without an index is
// found again by a later fragment that has one). Once MaxInt is taken there is no next index:
// later calls share MaxInt, after it in order of appearance, and are routed to by none.
func (a *assembler) newCall(w int) *call {
	index := w
	if w < 0 || a.byWire.get(w) != nil {
		index = a.next
		if a.full {
			index = math.MaxInt
		}
	}
	if index == math.MaxInt {
		a.full = true
	} else {
		a.next = max(a.next, index+1)
	}
	c := &call{index: index, wire: -1, seq: len(a.calls)}
	a.calls = append(a.calls, c)
	if a.byWire.get(index) == nil {
		a.byWire.set(index, c)
	}
	return c
}

// routes maps wire indexes to calls: small indexes (as servers send them, 0, 1, 2 ...) by a
// slice, the others by a map.
type routes struct {
	small []*call
	large map[int]*call
}

const smallIndexes = 1 << 16

func (r *routes) get(w int) *call {
	if 0 <= w && w < len(r.small) {
		return r.small[w]
	}
	if w >= 0 && w < smallIndexes {
		return nil
	}
	return r.large[w]
}

func (r *routes) set(w int, c *call) {
	if 0 <= w && w < smallIndexes {
		if w >= len(r.small) {
			r.small = append(r.small, make([]*call, w+1-len(r.small))...)
		}
		r.small[w] = c
		return
	}
	if r.large == nil {
		r.large = make(map[int]*call)
	}
	r.large[w] = c
}

// touch notes that c took a fragment, keeping touched in order of appearance.
func (a *assembler) touch(c *call) {
	if c.touched {
		return
	}
	c.touched = true
	a.touched = append(a.touched, c)
	for i := len(a.touched) - 1; i > 0 && a.touched[i].seq < a.touched[i-1].seq; i-- {
		a.touched[i], a.touched[i-1] = a.touched[i-1], a.touched[i]
	}
}

// start emits the call's start, and one delta with the argument text that came before it.
func (a *assembler) start(c *call, out []phase.CallEvent) []phase.CallEvent {
	c.id = a.uniqueID(c, func(id string) bool { return a.started[id] != nil })
	if a.started == nil {
		a.started = make(map[string]*call)
	}
	a.started[c.id] = c
	c.started = true
	out = append(out, phase.CallEvent{Type: phase.CallStart, ID: c.id, Name: c.name})
	if len(c.args) > 0 {
		out = append(out, phase.CallEvent{Type: phase.CallDelta, ID: c.id, ArgsTextDelta: string(c.args)})
	}
	return out
}

// uniqueID is c's id (call_<index> when it has none), with a suffix _2, _3 ... when taken.
func (a *assembler) uniqueID(c *call, taken func(string) bool) string {
	base := c.id
	if base == "" {
		base = "call_" + strconv.Itoa(c.index)
	}
	return DistinctID(base, taken)
}

// over is the signal that something after the calls' fragments arrived (a fragment of another
// call, a content or reasoning delta, a finish_reason): every call other than except whose
// arguments are closed becomes ready; so does one whose arguments are already invalid (no
// later text can mend them), so the machine reports its error now rather than at the end.
func (a *assembler) over(except *call, out []phase.CallEvent) []phase.CallEvent {
	if a.frozen {
		return out
	}
	kept := a.touched[:0]
	for _, c := range a.touched {
		switch {
		case c == except:
			kept = append(kept, c)
			continue
		case !c.final && (c.lex.Closed() || c.lex.Invalid()):
			out = a.ready(c, out)
		}
		c.touched = false
	}
	clear(a.touched[len(kept):])
	a.touched = kept
	return out
}

func (a *assembler) ready(c *call, out []phase.CallEvent) []phase.CallEvent {
	if !c.started {
		out = a.start(c, out)
	}
	c.final = true
	return append(out, phase.CallEvent{Type: phase.CallReady, ID: c.id})
}

// finish ends every call still open: at a complete end each becomes ready whatever its
// arguments (the machine parses them: blank means {}, invalid JSON makes the call an error);
// otherwise each started call is interrupted (reason says how the stream ended) and was never
// dispatched.
func (a *assembler) finish(complete bool, reason string, out []phase.CallEvent) []phase.CallEvent {
	for _, c := range a.calls {
		switch {
		case c.final:
		case complete:
			out = a.ready(c, out)
		case c.started:
			c.final = true
			out = append(out, phase.CallEvent{Type: phase.CallInterrupt, ID: c.id, Why: streamEnded(reason)})
		}
	}
	a.frozen = true
	return out
}

// toolCalls returns the calls in index order, with unique ids.
func (a *assembler) toolCalls() []ToolCall {
	if len(a.calls) == 0 {
		return nil
	}
	// Started calls keep the ids they started with; the others get the id they would start
	// with now, unique too.
	out := make([]ToolCall, len(a.calls))
	given := map[string]bool{}
	for i, c := range a.calls {
		id := c.id
		if !c.started {
			id = a.uniqueID(c, func(id string) bool { return a.started[id] != nil || given[id] })
		}
		given[id] = true
		out[i] = ToolCall{Index: c.index, ID: id, Name: c.name, Arguments: string(c.args), ExtraContent: c.extra}
	}
	sortByIndex(out)
	return out
}

func sortByIndex(calls []ToolCall) {
	for i := 1; i < len(calls); i++ { // insertion sort: calls nearly always arrive in order
		for j := i; j > 0 && calls[j].Index < calls[j-1].Index; j-- {
			calls[j], calls[j-1] = calls[j-1], calls[j]
		}
	}
}

// streamEnded is why a call the stream ended unfinished is not run; detail is what the user
// was told about the stream's end.
func streamEnded(detail string) phase.Interruption {
	return phase.Interruption{Why: phase.CutStreamEnded, Detail: detail}
}
