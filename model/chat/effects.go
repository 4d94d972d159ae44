package chat

import (
	"context"
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// Source is an open answer: a live stream or a buffered answer replayed as updates.
// *stream.Stream is one.
type Source interface {
	Next() (wire.Update, bool)
	Result() wire.Result
	Close()
}

// Effect is work the front end must do for the engine.
type Effect interface{ isEffect() }

// OpenStream asks for a request to be sent; its updates come back as StreamMsg with Req.
type OpenStream struct {
	Req      int
	Ctx      context.Context
	Provider string // the configured provider to send to; "" for the session's only endpoint
	Request  wire.Request
	Buffered bool // send with stream: false and replay the answer as updates
}

// PullNext asks for the next update of an open source.
type PullNext struct {
	Req int
	Src Source
}

// CloseSource releases a source the engine no longer reads.
type CloseSource struct{ Src Source }

// RunTool asks for a tool to run; its result comes back as ToolDoneMsg with Req.
type RunTool struct {
	Req  int
	Ctx  context.Context
	Call phase.ToolCall // a ready call: its arguments parsed (Args)
	// Watch asks for the tool's output while it runs, as ToolOutputMsg before its ToolDoneMsg.
	Watch bool
	// Durable, when not nil, returns once the records before this effect are on disk; a tool
	// with side effects waits for it before it starts, so the log says it started even if
	// the power fails (see perform.LogRecords).
	Durable func() error
}

// AwaitTool asks for the next message of a watched tool: another ToolOutputMsg or its
// ToolDoneMsg. Next blocks until there is one.
type AwaitTool struct{ Next func() any }

// Cancel ends a request's context: its HTTP stream and every tool it started.
type Cancel struct{ Cancel context.CancelFunc }

// Record asks for one final message (or a request's usage) to be appended to the session log.
// An assistant Message says how the reply ended (End), a tool result how its call did
// (Ending).
type Record struct {
	Message *wire.Message
	Usage   *wire.Usage
	// Cost is what Usage cost in US dollars at the price of the model in use; 0 when its price
	// is not known.
	Cost float64
	// Model, set alone, says the conversation goes on with this model from here (a switch;
	// "provider/model" when the provider is named).
	Model string
	// Live, set alone, is a step of the request in flight (see Live).
	Live *Live
	// Compaction, set alone, says requests send this summary from here on (see Compact).
	Compaction *Compaction
	// At is when the record was first made, for one copied into another log (Records); zero
	// is when it is recorded.
	At time.Time
}

func (OpenStream) isEffect()  {}
func (PullNext) isEffect()    {}
func (CloseSource) isEffect() {}
func (RunTool) isEffect()     {}
func (Cancel) isEffect()      {}
func (Record) isEffect()      {}
func (AwaitTool) isEffect()   {}

// StreamMsg is one pull from a request's source: Update, then Rest (the updates the source
// already held behind it), in the order the source gave them. More is false once the source
// is exhausted; then Result is its final result, and Update (when Rest is empty) may be the
// empty update of a pull that found the source exhausted.
type StreamMsg struct {
	Req    int
	Src    Source
	Update wire.Update
	Rest   []wire.Update
	More   bool
	Result wire.Result
}

// ToolOutputMsg is the last lines a watched tool printed so far (cleaned and bounded by the
// registry); Next gives the tool's next message (see AwaitTool).
type ToolOutputMsg struct {
	Req    int
	CallID string
	Output string
	Next   func() any
}

// ToolDoneMsg reports a finished tool run.
type ToolDoneMsg struct {
	Req    int
	CallID string
	Result phase.ToolResult
}

// Toolbox is what the engine needs to know about the tools; running them is an effect.
type Toolbox interface {
	Definitions() []wire.Tool
	SideEffects(name string) bool
	// Check returns why a call cannot run as made (an unknown tool, arguments that are not
	// JSON or fail the tool's schema), in words for the model; "" when it can run.
	Check(call phase.ToolCall) string
	// Describe summarises a call's arguments (not its name) in one sanitised line, with no
	// JSON punctuation beyond {…} and [N items]; "" when there are none.
	Describe(call phase.ToolCall) string
}

// ApprovalKeyer is a Toolbox whose tools can change what they declare about themselves (an
// MCP server's annotations). An "allow for the session" answer is remembered by the key, so
// a tool whose key changes is asked about again.
type ApprovalKeyer interface {
	ApprovalKey(name string) string
}

// PendingTools is a Toolbox whose tools arrive over time (MCP servers still starting). A
// request goes out with the tools that are ready; the first request that goes without some
// says so, once, naming what it goes without.
type PendingTools interface {
	Pending() []string
}
