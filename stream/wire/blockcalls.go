package wire

import (
	"strconv"

	"github.com/phasechat/phasechat/phase"
)

// blockCalls follows the tool calls of a format that opens and closes each call explicitly
// (an Anthropic tool_use block, a Responses function_call item), and emits the
// phase.CallEvents that move each through phase.ToolCalls: one start when the call opens,
// then its argument deltas, then exactly one ready (at its own end: dispatched mid-stream)
// or error, and nothing after that.
//
// Invariants: ids are unique among the calls (a repeated or missing id gets a suffix or
// call_<index>); a call's Arguments is every fragment given to it, in order; once frozen (an
// error was seen, or the stream ended) no call becomes ready. Each fragment costs O(its size).
type blockCalls struct {
	calls  []*blockCall
	byKey  map[string]*blockCall
	ids    map[string]bool
	frozen bool
}

type blockCall struct {
	index    int
	id, name string
	itemID   string // the Responses item id (fc_...), kept for sending the call back
	args     []byte
	final    bool
}

// open starts a new call under key (replacing any call the key named before).
func (b *blockCalls) open(key, id, name string, out []phase.CallEvent) (*blockCall, []phase.CallEvent) {
	if b.byKey == nil {
		b.byKey, b.ids = map[string]*blockCall{}, map[string]bool{}
	}
	c := &blockCall{index: len(b.calls), name: name}
	base := id
	if base == "" {
		base = "call_" + strconv.Itoa(c.index)
	}
	c.id = DistinctID(base, func(id string) bool { return b.ids[id] })
	b.ids[c.id] = true
	b.calls = append(b.calls, c)
	b.byKey[key] = c
	if b.frozen {
		c.final = true
		return c, out
	}
	return c, append(out, phase.CallEvent{Type: phase.CallStart, ID: c.id, Name: name})
}

// alias makes key name c too.
func (b *blockCalls) alias(key string, c *blockCall) { b.byKey[key] = c }

// get is the call key names, or nil.
func (b *blockCalls) get(key string) *blockCall { return b.byKey[key] }

// delta adds argument text to c.
func (b *blockCalls) delta(c *blockCall, text string, out []phase.CallEvent) []phase.CallEvent {
	if c.final || text == "" {
		return out
	}
	if len(c.args)+len(text) > cap(c.args) {
		grown := make([]byte, len(c.args), 2*(len(c.args)+len(text)))
		copy(grown, c.args)
		c.args = grown
	}
	c.args = append(c.args, text...)
	return append(out, phase.CallEvent{Type: phase.CallDelta, ID: c.id, ArgsTextDelta: text})
}

// complete makes c's arguments whole: the format's own copy of the whole arguments (sent at
// the call's end) adds what the deltas did not bring, when what they brought is its prefix.
func (b *blockCalls) complete(c *blockCall, whole string, out []phase.CallEvent) []phase.CallEvent {
	if len(whole) > len(c.args) && whole[:len(c.args)] == string(c.args) {
		out = b.delta(c, whole[len(c.args):], out)
	}
	return out
}

// ready ends c: its arguments are complete and it may run.
func (b *blockCalls) ready(c *blockCall, out []phase.CallEvent) []phase.CallEvent {
	if c.final || b.frozen {
		return out
	}
	c.final = true
	return append(out, phase.CallEvent{Type: phase.CallReady, ID: c.id})
}

// finish ends every call still open: ready when complete, else interrupted with reason (never
// dispatched). Nothing becomes ready after it.
func (b *blockCalls) finish(complete bool, reason string, out []phase.CallEvent) []phase.CallEvent {
	for _, c := range b.calls {
		switch {
		case c.final:
		case complete && !b.frozen:
			out = b.ready(c, out)
		default:
			c.final = true
			out = append(out, phase.CallEvent{Type: phase.CallInterrupt, ID: c.id, Why: streamEnded(reason)})
		}
	}
	b.frozen = true
	return out
}

// itemIDs is each call's item id by call id; nil when none has one.
func (b *blockCalls) itemIDs() map[string]string {
	var out map[string]string
	for _, c := range b.calls {
		if c.itemID != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[c.id] = c.itemID
		}
	}
	return out
}

// toolCalls is the calls in the order they opened.
func (b *blockCalls) toolCalls() []ToolCall {
	if len(b.calls) == 0 {
		return nil
	}
	out := make([]ToolCall, len(b.calls))
	for i, c := range b.calls {
		out[i] = ToolCall{Index: c.index, ID: c.id, Name: c.name, Arguments: string(c.args)}
	}
	return out
}
