package chat

import (
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// Why a call that did not finish has no real result; the model reads these.
const (
	resultDeclined = "The user declined to run this tool."
	resultNoAsk    = "Not run: this tool has side effects and there is no terminal to ask for approval (start phasechat with --yes to allow it)."
	resultNoTools  = "Not run: no tools are available in this session."
)

// HandleStream folds one pull from the current request's source, its updates in order. A
// message from any other request only gets its source closed.
func (c *Chat) HandleStream(m StreamMsg) []Effect {
	st := c.step
	if st == nil || m.Req != st.id {
		if m.Src != nil {
			return []Effect{CloseSource{Src: m.Src}}
		}
		return nil
	}
	st.src = m.Src
	var effects []Effect
	if m.More || !emptyUpdate(m.Update) {
		effects = c.applyUpdate(st, m.Update, effects)
	}
	for _, u := range m.Rest {
		if c.step != st {
			break
		}
		effects = c.applyUpdate(st, u, effects)
	}
	switch {
	case c.step != st: // the stream's error ended the step
		return effects
	case !m.More:
		return append(effects, c.streamEnded(st, m.Result)...)
	}
	return append(effects, PullNext{Req: st.id, Src: m.Src})
}

// emptyUpdate reports whether u says nothing: the update of a pull that found the source
// exhausted.
func emptyUpdate(u wire.Update) bool {
	return u.N == 0 && len(u.Events) == 0 && len(u.Calls) == 0
}

// applyUpdate folds one update into the step, adding its effects to effects. An update that
// reports the stream's error fails the step (c.step is then no longer st).
func (c *Chat) applyUpdate(st *step, u wire.Update, effects []Effect) []Effect {
	for _, ev := range u.Events {
		switch ev.Kind {
		case phase.KindDone:
			// The stream is complete, not the turn: streamEnded decides.
		case phase.KindError:
			c.State = phase.Reduce(c.State, ev)
			return append(effects, c.fail(st, ev.Error, u.Err)...)
		default:
			c.State = phase.Reduce(c.State, ev)
		}
	}
	// A frame's calls go into the reply before its text: a call's start can wait for the frame
	// that shows the call is over (a call without an id), and that frame's text came after
	// the call on the wire (docs/architecture.md, Who owns what).
	for _, ev := range u.Calls {
		effects = append(effects, c.applyCall(st, ev)...)
	}
	st.sync(c.State)
	return effects
}

func (c *Chat) streamEnded(st *step, res wire.Result) []Effect {
	if res.Usage != nil {
		c.Turn = addUsage(c.Turn, *res.Usage)
		c.Session = addUsage(c.Session, *res.Usage)
	}
	effects := []Effect{CloseSource{Src: st.src}}
	st.src = nil
	if res.Usage != nil {
		u := *res.Usage
		effects = append(effects, Record{Usage: &u})
	}
	if res.Notice != "" {
		c.noticeOnce(res.Notice)
	}
	switch res.Outcome {
	case wire.OutcomeComplete:
		st.ended = true
		st.reply = res.Message
		if why := res.CutOff(); why != "" {
			st.cutOff = why
			c.tr.SetMark(st.entry, transcript.MarkCutOff, why)
		}
		if res.Usage != nil {
			if hint := contextCapHint(res.Usage.PromptTokens); hint != "" {
				c.noticeOnce(hint)
			}
		}
		return append(effects, c.advance(st)...)
	case wire.OutcomeStopped:
		return effects
	default:
		reason := "The request failed"
		if res.Err != nil {
			reason = res.Err.Message
		}
		c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindError, Error: reason})
		return append(effects, c.fail(st, reason, res.Err)...)
	}
}

// HandleToolOutput shows what a running tool printed so far on its card and asks for its next
// message. Output of a call that no longer runs, or of an older request, is dropped.
func (c *Chat) HandleToolOutput(m ToolOutputMsg) []Effect {
	st := c.step
	if st == nil || m.Req != st.id {
		return nil
	}
	if _, running := st.started[m.CallID]; running {
		c.tr.SetOutput(st.entry, m.CallID, m.Output)
	}
	return []Effect{AwaitTool{Next: m.Next}}
}

// HandleToolDone records a tool's result.
func (c *Chat) HandleToolDone(m ToolDoneMsg) []Effect {
	st := c.step
	if st == nil || m.Req != st.id {
		return nil
	}
	ev := phase.CallEvent{Type: phase.CallResult, ID: m.CallID, Result: m.Result}
	if m.Result.IsError {
		ev = phase.CallEvent{Type: phase.CallFail, ID: m.CallID, Error: m.Result.Output}
	}
	before, _ := st.calls.Get(m.CallID)
	if _, ok := st.apply(ev); ok {
		c.tr.SetResult(st.entry, m.CallID, m.Result.Output, m.Result.Duration)
		st.ran(m.CallID)
	}
	var effects []Effect
	if before.Status == phase.CallRunning && st.running > 0 {
		st.running--
		effects = c.startQueued(st)
	}
	return append(effects, c.advance(st)...)
}

// applyCall folds one reassembly event into the step's calls and cards, dispatching a call
// the moment it is ready.
func (c *Chat) applyCall(st *step, ev phase.CallEvent) []Effect {
	call, ok := st.apply(ev)
	if !ok {
		return nil
	}
	_, shown := st.entry.Card(call.ID)
	switch ev.Type {
	case phase.CallFail:
		// The stream ended the call before it was whole (a reply cut off by the server): it
		// is never run, and it stays out of the history, whose calls must be whole.
		st.unsent[call.ID] = true
		if shown {
			c.tr.SetResult(st.entry, call.ID, errorText(call.Error), 0)
		}
	case phase.CallReady:
		if !shown {
			return nil
		}
		if c.cfg.Tools != nil {
			c.tr.SetSummary(st.entry, call.ID, c.cfg.Tools.Describe(tools.Call{ID: call.ID, Name: call.Name, Arguments: call.ArgsText}))
		}
		if call.Status == phase.CallError {
			c.tr.SetResult(st.entry, call.ID, errorText(call.Error), 0)
			return nil
		}
		return c.dispatch(st, call)
	}
	return nil
}

// toolCall is a running call as the registry takes it, with the arguments the machine parsed.
func toolCall(call phase.ToolCall) tools.Call {
	args := call.Args
	return tools.Call{ID: call.ID, Name: call.Name, Arguments: call.ArgsText, Args: &args}
}

// dispatch runs a ready call, or queues it for approval (T2), or refuses it.
func (c *Chat) dispatch(st *step, call phase.ToolCall) []Effect {
	args := toolCall(call)
	switch {
	case c.cfg.Tools == nil:
		c.refuse(st, call.ID, resultNoTools)
		return nil
	}
	if problem := c.cfg.Tools.Check(args); problem != "" {
		c.refuse(st, call.ID, problem) // a call that cannot run is the model's to fix, not the user's to judge
		return nil
	}
	switch {
	case c.needsApproval(call.Name) && !c.cfg.CanAsk:
		c.refuse(st, call.ID, resultNoAsk)
		return nil
	case c.needsApproval(call.Name):
		st.asking = append(st.asking, call.ID)
		c.tr.SetAsking(st.entry, call.ID, true)
		st.numberAsking()
		if len(st.asking) == 1 {
			c.ask(st)
		}
		return nil
	}
	return c.start(st, call.ID)
}

// start runs a call that may run, or queues it while MaxTools calls are running.
func (c *Chat) start(st *step, id string) []Effect {
	if c.cfg.MaxTools > 0 && st.running >= c.cfg.MaxTools {
		st.queued = append(st.queued, id)
		c.tr.SetQueued(st.entry, id, st.running)
		return nil
	}
	call, _ := st.calls.Get(id)
	st.running++
	st.started[id] = c.now()
	c.tr.SetQueued(st.entry, id, 0)
	return []Effect{RunTool{Req: st.id, Ctx: st.ctx, Call: toolCall(call), Watch: c.cfg.LiveOutput}}
}

// startQueued starts the oldest queued calls that still may run, as far as the bound allows.
func (c *Chat) startQueued(st *step) []Effect {
	var effects []Effect
	for len(st.queued) > 0 && (c.cfg.MaxTools <= 0 || st.running < c.cfg.MaxTools) {
		id := st.queued[0]
		st.queued = st.queued[1:]
		if call, _ := st.calls.Get(id); call.Status != phase.CallRunning {
			c.tr.SetQueued(st.entry, id, 0)
			continue
		}
		effects = append(effects, c.start(st, id)...)
	}
	return effects
}

func (c *Chat) needsApproval(name string) bool {
	return !c.cfg.AutoApprove && !c.allowed[c.approvalKey(name)] && c.cfg.Tools.SideEffects(name)
}

// approvalKey is what "allow for the session" remembers a tool by: its name, or what a
// toolbox whose tools can change what they declare says stands for the tool as it is now.
func (c *Chat) approvalKey(name string) string {
	if k, ok := c.cfg.Tools.(ApprovalKeyer); ok {
		return k.ApprovalKey(name)
	}
	return name
}

// refuse ends a call without running it; the model reads why.
func (c *Chat) refuse(st *step, id, why string) {
	st.failCall(id, why)
}

// ask puts the oldest waiting approval on the status line.
func (c *Chat) ask(st *step) {
	if len(st.asking) == 0 {
		return
	}
	card, _ := st.entry.Card(st.asking[0])
	c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindAsk, Tool: card.Name(), Delta: askDetail(card)})
}

// askDetail is what the approval question says the tool will be run with.
func askDetail(card transcript.Card) string {
	if card.Summary() == "" {
		return "no arguments"
	}
	return card.Summary()
}

func errorText(e any) string {
	switch e := e.(type) {
	case string:
		return e
	case error:
		return e.Error()
	case nil:
		return "failed"
	}
	return "failed"
}

// addUsage sums the usage of separate requests (within one stream only the last report counts).
func addUsage(a, b wire.Usage) wire.Usage {
	return wire.Usage{PromptTokens: a.PromptTokens + b.PromptTokens, CompletionTokens: a.CompletionTokens + b.CompletionTokens, TotalTokens: a.TotalTokens + b.TotalTokens}
}
