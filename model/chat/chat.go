package chat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// DefaultMaxSteps bounds the requests of one turn (docs/architecture.md, Running tools).
const DefaultMaxSteps = 8

// Config is fixed for a session.
type Config struct {
	Provider    string // the configured provider requests go to; "" for the only endpoint
	Model       string
	System      string  // sent first with every request when not empty
	MaxSteps    int     // requests per turn; 0 means DefaultMaxSteps
	NoStream    bool    // ask for buffered answers (stream: false)
	Tools       Toolbox // nil: no tools are offered
	AutoApprove bool    // --yes: side-effecting tools run without asking
	CanAsk      bool    // a user is there to answer approvals; false denies them
	// LiveOutput asks for a running tool's output as it prints, shown on its card.
	LiveOutput bool
	// Clock tells the time a tool starts, for its card's running time; nil means time.Now.
	Clock func() time.Time
	// MaxTools is how many tools run at once; a ready call past it is queued, shown as
	// waiting for a free slot, and started when a running one ends. 0 means no bound.
	MaxTools int
	// Budget is the model's context window and price, as far as they are known (SetBudget).
	Budget budget.Model
	// CompactAt, between 0 and 1, compacts the conversation on its own (Compact) once a
	// turn has ended with the context filled past this share of the window; 0 never does.
	CompactAt float64
}

// Chat is the engine. Use New; not safe for concurrent use.
type Chat struct {
	cfg     Config
	State   phase.State
	History []wire.Message
	Turn    wire.Usage // usage of the current (or last) turn's requests
	Session wire.Usage // usage of every request so far
	// attached are the files the next message carries (Attach).
	attached []wire.Attachment
	// LogWarning is what the footer says while the session log cannot be written; "" when
	// it can (see LogTrouble).
	LogWarning string

	tr      transcript.Transcript
	step    *step       // the current request; nil when none
	failed  *step       // the request that failed last, until Retry, Regenerate or a new message
	failErr *wire.Error // why it failed
	// autoRetried: the automatic retry of this failure was used; a user's action resets it.
	autoRetried bool
	nextReq     int
	steps       int             // requests started in this turn
	allowed     map[string]bool // tools the user allowed for the rest of the session, by approval key
	noticed     map[string]bool // notices already said this session
	// saidPending is set once a request went out without the tools of a source still starting.
	saidPending bool
	// composerFocus: in this error phase the composer, not Retry, holds the focus (Focus).
	composerFocus bool
	noRetryKey    bool // the front end cannot press Retry (NoRetryKey)
	spend         spending
	queue         queue     // messages sent while a reply streamed (queue.go)
	clock         turnClock // the turn's live figures (counters.go)

	// retryReq is the id of the request that is an automatic retry; 0 when none was made.
	retryReq int

	retry    retryCountdown // the automatic retry's, while one runs
	approval ApprovalKeys   // which keys answer the approval question shown
	asked    question       // the question approval was last armed for
	quiet    time.Duration  // see SetApprovalQuiet

	compacted Compaction   // the compaction requests send (Compact)
	summary   *summarising // the summary request in flight; nil when none
	// compactDue: the last request filled the context past CompactAt; the turn's end compacts.
	compactDue bool
}

// New returns an idle engine continuing history (which may be empty; see Resume).
func New(cfg Config, history []wire.Message) *Chat {
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	c := &Chat{cfg: cfg, allowed: map[string]bool{}, noticed: map[string]bool{}}
	c.History = repairHistory(history)
	entriesFor(&c.tr, c.History, cfg.Tools)
	return c
}

func (c *Chat) now() time.Time {
	if c.cfg.Clock != nil {
		return c.cfg.Clock()
	}
	return time.Now()
}

// Running reports whether a tool of the current request is running.
func (c *Chat) Running() bool { return c.step != nil && c.step.calls.Running() > 0 }

// Tick tells the engine the time: each running tool's card shows how long it has run, and the
// turn's live counters (Counters) are brought up to now.
func (c *Chat) Tick(now time.Time) {
	if c.State.Phase.Streaming() {
		c.countTurn(now)
	}
	if st := c.step; st != nil {
		for _, call := range st.calls.List() {
			if call.Status == phase.CallRunning {
				c.tr.SetElapsed(st.entry, call.ID, max(0, now.Sub(call.Started)))
			}
		}
	}
}

// Model is the provider and model the next request goes to.
func (c *Chat) Model() (provider, model string) { return c.cfg.Provider, c.cfg.Model }

// SetModel switches the provider and model from the next request on; the history carries
// over, and the switch is recorded. A request in flight finishes where it started. An empty
// model, or the one in use, is ignored.
func (c *Chat) SetModel(provider, model string) []Effect {
	if strings.TrimSpace(model) == "" || provider == c.cfg.Provider && model == c.cfg.Model {
		return nil
	}
	c.cfg.Provider, c.cfg.Model = provider, model
	return []Effect{Record{Model: c.modelLabel()}}
}

// Submit sends a user message, starting a new turn. Ignored while a request is in flight or
// when text is blank.
func (c *Chat) Submit(text string) []Effect { return c.SubmitWith(text, nil) }

// SubmitWith is Submit with files sent after the text, after those Attach added; with files
// the text may be blank. The transcript shows each file as its chip under the text. A
// message the model cannot take (see ImagesRefused) is not sent: the transcript says why
// and the files stay attached.
func (c *Chat) SubmitWith(text string, files []wire.Attachment) []Effect {
	return c.out(c.submit(text, files))
}

func (c *Chat) submit(text string, files []wire.Attachment) []Effect {
	if c.State.Phase.Streaming() || strings.TrimSpace(text) == "" && len(files) == 0 && len(c.attached) == 0 {
		return nil
	}
	if why := c.ImagesRefused(files); why != "" {
		c.Attach(files...)
		c.Notice(why)
		return nil
	}
	files, c.attached = append(c.attached, files...), nil
	var effects []Effect
	c.autoRetried, c.queue.held = false, false
	if st := c.failed; st != nil {
		c.failed = nil
		effects = c.commit(st, nil)
	}
	msg := wire.Message{Role: "user", Parts: wire.TextParts(text), Attachments: files}
	c.History = append(c.History, msg)
	c.tr.Add(promptSpec(text, files))
	c.steps, c.Turn = 0, wire.Usage{}
	effects = append(effects, Record{Message: &msg})
	return append(effects, c.request()...)
}

// Retry re-sends the request that failed. Only in the error phase.
func (c *Chat) Retry() []Effect { return c.out(c.retryFailed()) }

func (c *Chat) retryFailed() []Effect {
	if c.State.Phase != phase.Error {
		return nil
	}
	c.steps--
	c.failed, c.autoRetried, c.queue.held = nil, false, false
	return c.request()
}

// CanRegenerate reports whether Regenerate would do anything.
func (c *Chat) CanRegenerate() bool {
	return !c.State.Phase.Streaming() && lastUser(c.History) >= 0
}

// Regenerate drops everything after the last user message and asks again.
func (c *Chat) Regenerate() []Effect { return c.out(c.regenerate()) }

func (c *Chat) regenerate() []Effect {
	if !c.CanRegenerate() {
		return nil
	}
	c.failed, c.autoRetried, c.queue.held = nil, false, false
	c.History = c.History[:lastUser(c.History)+1]
	entries := c.tr.Entries()
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Role() == transcript.RoleUser {
			c.tr.Truncate(i + 1)
			break
		}
	}
	c.steps, c.Turn = 0, wire.Usage{}
	return c.request()
}

// Stop ends the request and every tool it started. The partial reply stays, marked, and goes
// into the history with the calls that ran (those still running get a "stopped by the user"
// result); calls that never became ready are dropped.
func (c *Chat) Stop() []Effect { return c.out(c.stop(phase.EndStopped, "")) }

// StopBySignal is Stop when a signal ends the run (signal names it, e.g. "SIGTERM"): the
// reply's end says so.
func (c *Chat) StopBySignal(signal string) []Effect { return c.out(c.stop(phase.EndSignal, signal)) }

// stop ends the request with why; a note of "" keeps the one the reply had.
func (c *Chat) stop(why phase.EndReason, note string) []Effect {
	if !c.State.Phase.Streaming() {
		return nil
	}
	c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindStop})
	c.holdQueue()
	if c.summary != nil {
		return c.stopSummary()
	}
	st := c.step
	if st == nil {
		return nil
	}
	c.step = nil
	if note == "" {
		note = st.entry.Note()
	}
	c.tr.SetEnd(st.entry, phase.End{Why: why, Note: note})
	return append(st.release(), c.commit(st, &phase.Interruption{Why: phase.CutByUser})...)
}

// request starts the next request of the turn from the current history.
func (c *Chat) request() []Effect {
	if c.cfg.Tools != nil {
		c.notePending()
		c.noteToolShare()
	}
	if c.steps == 0 {
		c.noteOversize()
	}
	c.steps++
	if c.steps == 1 {
		c.startClock()
	}
	c.nextReq++
	ctx, cancel := context.WithCancel(context.Background())
	entry := c.tr.Add(transcript.Spec{Role: transcript.RoleAssistant, Streaming: true})
	c.step = newStep(c.nextReq, ctx, cancel, &c.tr, entry)
	c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindSubmit})
	req := wire.Request{Model: c.cfg.Model, System: c.cfg.System, Messages: withNoReplyNotes(withCrashNotes(c.sent()))}
	if c.cfg.Tools != nil {
		req.Tools = c.cfg.Tools.Definitions()
	}
	return []Effect{live(Live{What: LiveBegin}), OpenStream{Req: c.step.id, Ctx: ctx, Provider: c.cfg.Provider, Request: req, Buffered: c.cfg.NoStream}}
}

// noticeOnce appends a notice unless the same text was said before in this session.
func (c *Chat) noticeOnce(text string) {
	if c.noticed[text] {
		return
	}
	c.noticed[text] = true
	c.notice("%s", text)
}

// notePending says, once a session, that a request goes without the tools of sources still
// starting. It asks before Definitions: a source that gets ready in between is named though
// its tools made it, never the other way round.
func (c *Chat) notePending() {
	p, ok := c.cfg.Tools.(PendingTools)
	if !ok || c.saidPending {
		return
	}
	if names := p.Pending(); len(names) > 0 {
		c.saidPending = true
		c.notice("Still starting: %s. This request goes out with the tools that are ready.", strings.Join(names, ", "))
	}
}

// Notice appends a line from phasechat itself to the transcript (e.g. an MCP server that
// failed to start). text is untrusted: the view sanitises it.
func (c *Chat) Notice(text string) {
	c.tr.Add(transcript.Spec{Role: transcript.RoleNotice, Text: text})
}

// ClearTranscript empties the transcript; the history, and so the next request, is kept.
func (c *Chat) ClearTranscript() { c.tr.Truncate(0) }

// Entries is the transcript so far, for reading: only the engine changes it.
func (c *Chat) Entries() []*transcript.Entry { return c.tr.Entries() }

// Follow returns a reader of the transcript's changes from now on (see transcript.Reader);
// Close it when it is no longer read.
func (c *Chat) Follow() *transcript.Reader { return c.tr.Follow() }

// ToggleDetails expands or folds the focused card or prompt; with none focused, the most
// recent tool card, reasoning, or prompt folded or carrying files among the entries from
// index from on (those before it cannot be drawn again: the inline mode printed them). It
// reports whether there was anything to toggle.
func (c *Chat) ToggleDetails(from int) bool {
	if c.tr.ToggleFocused() {
		return true
	}
	entries := c.tr.Entries()
	for i := len(entries) - 1; i >= max(0, from); i-- {
		e := entries[i]
		if n := len(e.Cards()); n > 0 {
			c.tr.ToggleCard(e, n-1)
			return true
		}
		if e.Reasoning() != "" || e.Expandable() {
			c.tr.ToggleReasoning(e)
			return true
		}
	}
	return false
}

// notice appends a line of the engine's own to the transcript.
func (c *Chat) notice(format string, args ...any) {
	c.Notice(fmt.Sprintf(format, args...))
}

func lastUser(h []wire.Message) int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == "user" {
			return i
		}
	}
	return -1
}

// Restart replaces the conversation with history (nil: a new, empty one), keeping the
// configuration. Ignored while a request is in flight.
func (c *Chat) Restart(history []wire.Message) {
	if c.State.Phase.Streaming() {
		return
	}
	c.History = repairHistory(history)
	c.tr.Truncate(0)
	entriesFor(&c.tr, c.History, c.cfg.Tools)
	c.State, c.Turn, c.Session, c.steps, c.allowed = phase.State{}, wire.Usage{}, wire.Usage{}, 0, map[string]bool{}
	c.spend = spending{}
	c.retry.left = 0
	c.compacted = Compaction{}
}

// SetSystem replaces the system prompt sent with every later request ("" sends none).
func (c *Chat) SetSystem(text string) { c.cfg.System = text }

// System is the system prompt sent with every request.
func (c *Chat) System() string { return c.cfg.System }

// LogTrouble tells the user at once that the session log could not be written (err says why
// and how many records wait to be retried), or, with a nil err, that what waited was written
// after all. A run of failures gets one notice; LogWarning says it in the footer meanwhile.
func (c *Chat) LogTrouble(err error) {
	if err == nil {
		if c.LogWarning != "" {
			c.LogWarning = ""
			c.notice("The session log is written again; no record was lost.")
		}
		return
	}
	if c.LogWarning == "" {
		text := err.Error()
		c.notice("%s%s. Free some space (or fix the file); the chat goes on and each new record retries.",
			strings.ToUpper(text[:1]), text[1:])
	}
	c.LogWarning = "log not saved"
}
