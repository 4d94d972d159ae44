package chat

import (
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// HandleStream folds one pull from the current request's source, its updates in order. A
// message from any other request only gets its source closed.
func (c *Chat) HandleStream(m StreamMsg) []Effect { return c.out(c.handleStream(m)) }

func (c *Chat) handleStream(m StreamMsg) []Effect {
	if c.summary != nil && m.Req == c.summary.id {
		return c.handleSummary(m)
	}
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
	if c.step == st {
		effects = c.liveText(st, effects)
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
	if u.Usage != nil { // recorded as it comes: a crash before the stream's end keeps it
		usage := *u.Usage
		effects = append(effects, live(Live{What: LiveUsage, Usage: &usage}))
	}
	return effects
}

func (c *Chat) streamEnded(st *step, res wire.Result) []Effect {
	usd := c.account(res.Usage)
	effects := []Effect{CloseSource{Src: st.src}}
	st.src = nil
	if res.Usage != nil {
		u := *res.Usage
		effects = append(effects, Record{Usage: &u, Cost: usd})
		c.clock.reported = st.id
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
			c.tr.SetEnd(st.entry, phase.End{Why: phase.EndCutOff, Note: why})
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
	c.tr.SetOutput(st.entry, m.CallID, m.Output)
	return []Effect{AwaitTool{Next: m.Next}}
}

// HandleToolDone records a tool's result; a slot it freed goes to the oldest queued call.
func (c *Chat) HandleToolDone(m ToolDoneMsg) []Effect { return c.out(c.handleToolDone(m)) }

func (c *Chat) handleToolDone(m ToolDoneMsg) []Effect {
	st := c.step
	if st == nil || m.Req != st.id {
		return nil
	}
	before, _ := st.calls.Get(m.CallID)
	after, _ := st.apply(phase.CallEvent{Type: phase.CallResult, ID: m.CallID,
		Result: phase.ToolResult{Output: m.Result.Output, IsError: m.Result.IsError, Duration: m.Result.Duration}})
	var effects []Effect
	if after.Status.Final() && !before.Status.Final() {
		effects = append(effects, liveResult(after))
	}
	if before.Status == phase.CallRunning {
		effects = append(effects, c.startQueued(st)...)
	}
	return append(effects, c.advance(st)...)
}

// applyCall folds one reassembly event into the step's calls and cards, dispatching a call
// the moment it is ready.
func (c *Chat) applyCall(st *step, ev phase.CallEvent) []Effect {
	call, ok := st.apply(ev)
	if !ok || ev.Type != phase.CallReady {
		return nil
	}
	if c.cfg.Tools != nil {
		c.tr.SetSummary(st.entry, call.ID, c.cfg.Tools.Describe(call))
	}
	if call.Status != phase.CallArgsReady { // its arguments were not JSON, or it ended before
		return nil
	}
	effects := append(c.liveText(st, nil), live(Live{What: LiveCall, ID: call.ID, Name: call.Name, Args: call.ArgsText}))
	return append(effects, c.dispatch(st, call)...)
}

// dispatch runs a ready call, or asks for approval first, or refuses it.
func (c *Chat) dispatch(st *step, call phase.ToolCall) []Effect {
	refuse := func(ev phase.CallEvent) []Effect {
		ev.Type, ev.ID = phase.CallRefuse, call.ID
		refused, _ := st.apply(ev)
		return []Effect{liveResult(refused)}
	}
	if c.cfg.Tools == nil {
		return refuse(phase.CallEvent{NotRun: phase.NotRunNoTools})
	}
	if problem := c.cfg.Tools.Check(call); problem != "" {
		// A call that cannot run is the model's to fix, not the user's to judge.
		return refuse(phase.CallEvent{Result: phase.ToolResult{Output: problem}})
	}
	switch {
	case c.needsApproval(call.Name) && !c.cfg.CanAsk:
		return refuse(phase.CallEvent{NotRun: phase.NotRunNoApprover})
	case c.needsApproval(call.Name):
		st.apply(phase.CallEvent{Type: phase.CallAsk, ID: call.ID})
		if asked, _ := st.calls.Asking(); asked.ID == call.ID {
			c.ask(st)
		}
		return []Effect{live(Live{What: LiveAsk, ID: call.ID, Name: call.Name})}
	}
	return c.start(st, call.ID)
}

// start runs a call that may run, or queues it while MaxTools calls are running.
func (c *Chat) start(st *step, id string) []Effect {
	if c.cfg.MaxTools > 0 && st.calls.Running() >= c.cfg.MaxTools {
		st.apply(phase.CallEvent{Type: phase.CallQueue, ID: id})
		return nil
	}
	call, _ := st.apply(phase.CallEvent{Type: phase.CallRun, ID: id, At: c.now()})
	return []Effect{live(Live{What: LiveRun, ID: call.ID, Name: call.Name}), RunTool{Req: st.id, Ctx: st.ctx, Call: call, Watch: c.cfg.LiveOutput}}
}

// startQueued starts the oldest queued calls, as far as the bound allows.
func (c *Chat) startQueued(st *step) []Effect {
	var effects []Effect
	for c.cfg.MaxTools <= 0 || st.calls.Running() < c.cfg.MaxTools {
		call, ok := st.calls.NextQueued()
		if !ok {
			break
		}
		effects = append(effects, c.start(st, call.ID)...)
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

// ask puts the oldest waiting approval on the status line.
func (c *Chat) ask(st *step) {
	call, ok := st.calls.Asking()
	if !ok {
		return
	}
	card, _ := st.entry.Card(call.ID)
	c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindAsk, Tool: call.Name, Delta: askDetail(card)})
}

// askDetail is what the approval question says the tool will be run with.
func askDetail(card transcript.Card) string {
	if card.Summary() == "" {
		return "no arguments"
	}
	return card.Summary()
}
