package chat

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// CompactPrompt is the system prompt of the summary request /compact sends; the user's focus,
// when given, follows the conversation in the request's one user message.
const CompactPrompt = "You write a summary of a conversation between a user and an assistant, so that the " +
	"conversation can go on from the summary alone. Keep what the user asked for and decided, the facts, " +
	"names, file paths, commands, code and numbers that still matter, what was done (which tools ran and " +
	"what they found), what is still open, and what was about to happen next. Write in the conversation's " +
	"language, as short paragraphs and lists, with no greeting and no comment on the summary itself."

// KeepTurns is how many of the last user turns a compaction keeps whole: each request sends
// them as they were, after the summary of the turns before them. A compaction always stands
// for at least one turn, so a conversation of KeepTurns turns or fewer keeps fewer.
const KeepTurns = 2

// SummaryHeading opens the summary's transcript entry and the text requests send in place of
// the turns it stands for.
const SummaryHeading = "Summary of the conversation so far"

// maxResultInSummary bounds each tool result the summary request quotes, in bytes.
const maxResultInSummary = 2000

// Compaction is a summary that stands, in every request, for the first Turns user turns of
// the history (each a user message and everything after it up to the next one). The history
// itself keeps every message; the zero Compaction is none.
type Compaction struct {
	Summary string
	Turns   int
	// After is how many user turns the conversation had when the compaction was made: its
	// summary's entry comes after them in the transcript. 0 is not known (it comes last).
	After int
}

// At is the index in h where the compaction belongs: the user message that begins the turn
// after its first After turns, or len(h) when that turn is not in h or After is not known.
func (cp Compaction) At(h []wire.Message) int {
	if cp.After <= 0 {
		return len(h)
	}
	return turnStart(h, cp.After)
}

// Records is h as the records that log it, each of cps (in the order they were made) in its
// place among them (see Compaction.At), each of tallies' usage just before the reply that
// ended its turn (with its cost at its Price), and a switch of model before each message held
// with another model than the one named before it (models[i] is h[i]'s, "" not known; the
// first named is the log's header's: FirstModel), so that a log seeded with them reads back
// as h, models, cps and tallies. They are stamped at, but the user message beginning a
// tallied turn, stamped the turn's Took before.
func Records(h []wire.Message, models []string, cps []Compaction, tallies []SavedTally, at time.Time) []Record {
	out := make([]Record, 0, len(h)+len(cps)+len(tallies))
	named := FirstModel(models)
	next, said, began := 0, -1, -1 // began: out's index of the last user message
	nextAt := func() int {         // where cps[next] belongs, found once for each compaction
		if next < len(cps) {
			return cps[next].At(h)
		}
		return len(h)
	}
	place := nextAt()
	for i := range h {
		for ; next < len(cps) && place <= i; place = nextAt() {
			out = append(out, Record{Compaction: &cps[next], At: at})
			next++
		}
		if i < len(models) && models[i] != "" && models[i] != named {
			named = models[i]
			out = append(out, Record{Model: named, At: at})
		}
		switch h[i].Role {
		case "user":
			said++
			began = len(out)
		case "assistant":
			said++
			for len(tallies) > 0 && tallies[0].Reply < said {
				tallies = tallies[1:]
			}
			if len(tallies) > 0 && tallies[0].Reply == said {
				out = append(out, Record{Usage: &tallies[0].Usage, Cost: tallies[0].cost(), At: at})
				if began >= 0 {
					out[began].At = at.Add(-tallies[0].Took)
				}
			}
		}
		out = append(out, Record{Message: &h[i], At: at})
	}
	for ; next < len(cps); next++ {
		out = append(out, Record{Compaction: &cps[next], At: at})
	}
	return out
}

// FirstModel is the first model models name; "" when none does.
func FirstModel(models []string) string {
	for _, m := range models {
		if m != "" {
			return m
		}
	}
	return ""
}

// summarising is the summary request in flight: a side request, not a turn. Nothing it does
// reaches the history until its summary is complete.
type summarising struct {
	id      int
	cancel  context.CancelFunc
	src     Source
	entry   *transcript.Entry
	turns   int    // the Turns of the compaction it makes
	heading string // its entry's first line, fixed while it streams (the history is)
}

// Compacted is the compaction in force (the zero Compaction when none is).
func (c *Chat) Compacted() Compaction { return c.compacted }

// Compact asks the model for a summary of the turns before the last KeepTurns, focus (may be
// "") saying what to keep above all. The request goes to the model in use, with no tools; its
// reply streams into an entry of its own, and only once complete does it become the
// compaction (recorded first). Stop aborts it, an error ends it, and either leaves the
// conversation as it was. Like a message, it lets go of the queue a stop or failure held: the
// queue goes once the compaction is made. Nothing happens while a request is in flight; with nothing to
// summarise it says so.
func (c *Chat) Compact(focus string) []Effect { return c.out(c.compact(focus)) }

func (c *Chat) compact(focus string) []Effect {
	if c.State.Phase.Streaming() {
		return nil
	}
	turns := wire.UserTurns(c.History)
	from := c.compacted.Turns
	if turns-from <= 0 {
		if turns == 0 {
			c.notice("Nothing to compact yet: the conversation has no turn.")
		} else {
			c.notice("Nothing to compact: no turn was added since the last summary.")
		}
		return nil
	}
	upTo := turns - min(KeepTurns, turns-from-1)
	c.queue.held = false
	c.nextReq++
	ctx, cancel := context.WithCancel(context.Background())
	heading := summaryHeading(upTo, turns-upTo)
	entry := c.tr.Add(transcript.Spec{Role: transcript.RoleAssistant, Text: heading, Streaming: true})
	c.summary = &summarising{id: c.nextReq, cancel: cancel, entry: entry, turns: upTo, heading: heading}
	c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindSubmit})
	req := wire.Request{Model: c.cfg.Model, System: CompactPrompt, Messages: []wire.Message{{Role: "user",
		Parts: wire.TextParts(summaryAsk(c.compacted.Summary, c.History[turnStart(c.History, from):turnStart(c.History, upTo)], focus))}}}
	return []Effect{OpenStream{Req: c.summary.id, Ctx: ctx, Provider: c.cfg.Provider, Request: req, Buffered: c.cfg.NoStream}}
}

// summaryHeading is the first line of a summary's entry.
func summaryHeading(turns, kept int) string {
	return fmt.Sprintf("%s (it stands for the first %d %s; the last %d %s whole):\n\n", SummaryHeading,
		turns, format.Plural(turns, "turn", "turns"), kept, format.Plural(kept, "is sent", "are sent"))
}

// summaryAsk is the summary request's user message: the summary made before (if any), the
// turns to summarise as plain text (no tool is offered, so calls are quoted, not replayed),
// and what the user asked to keep.
func summaryAsk(earlier string, turns []wire.Message, focus string) string {
	var b strings.Builder
	if earlier != "" {
		b.WriteString("The summary of the conversation before:\n\n" + earlier + "\n\nThe conversation after it:\n\n")
	} else {
		b.WriteString("The conversation:\n\n")
	}
	for _, m := range turns {
		switch m.Role {
		case "user":
			b.WriteString("User: " + m.Text() + "\n\n")
			for _, f := range m.Attachments {
				b.WriteString("(The user attached " + f.Name + ".)\n\n")
			}
		case "assistant":
			if t := strings.TrimSpace(m.Text()); t != "" {
				b.WriteString("Assistant: " + t + "\n\n")
			}
			for _, call := range m.Calls() {
				b.WriteString("Assistant called the tool " + call.Name + " with " + call.Arguments + "\n\n")
			}
		case "tool":
			b.WriteString("Result of " + m.Name + ": " + bounded(m.Text(), maxResultInSummary) + "\n\n")
		}
	}
	b.WriteString("Write the summary of this conversation now.")
	if focus = strings.TrimSpace(focus); focus != "" {
		b.WriteString(" Keep above all: " + focus)
	}
	return b.String()
}

// bounded is s cut to at most n bytes (on a character boundary), saying how much was left out.
func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf(" … (%d more bytes)", len(s)-cut)
}

// turnStart is the index of h's user message that begins turn n+1 (counting from 0: the
// first n turns end there), or len(h) when h has n turns or fewer. A turn holds its calls
// and their results, so no cut there separates a call from its result.
func turnStart(h []wire.Message, n int) int {
	for i, m := range h {
		if m.Role == "user" {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return len(h)
}

// sent is the history as requests send it: with a compaction in force, its summary in place
// of the turns it stands for, joined to the first kept user message (so no two user messages
// come in a row), or alone when no turn is kept.
func (c *Chat) sent() []wire.Message {
	if c.compacted.Turns == 0 {
		return c.History
	}
	rest := c.History[turnStart(c.History, c.compacted.Turns):]
	summary := SummaryHeading + " (it stands for the earlier turns, which are not sent):\n\n" + c.compacted.Summary
	out := make([]wire.Message, 0, len(rest)+1)
	if len(rest) == 0 {
		return append(out, wire.Message{Role: "user", Parts: wire.TextParts(summary)})
	}
	first := rest[0]
	first.Parts = wire.TextParts(summary + "\n\n" + first.Text())
	return append(append(out, first), rest[1:]...)
}

// handleSummary folds one pull of the summary request's source into its entry; the
// source's end makes the compaction (then the queue's oldest message goes), or ends the
// attempt with nothing changed (the queue then waits, as after a failed turn).
func (c *Chat) handleSummary(m StreamMsg) []Effect {
	s := c.summary
	s.src = m.Src
	for _, u := range append([]wire.Update{m.Update}, m.Rest...) {
		for _, ev := range u.Events {
			switch ev.Kind {
			case phase.KindText, phase.KindReasoning:
				c.State = phase.Reduce(c.State, ev)
			case phase.KindError:
				return c.summaryFailed(ev.Error)
			}
		}
	}
	c.tr.SetReply(s.entry, s.heading+c.State.Text.String(), c.State.Reasoning.String())
	if m.More {
		return []Effect{PullNext{Req: s.id, Src: m.Src}}
	}
	res := m.Result
	effects := c.summaryCost(res.Usage)
	switch text := strings.TrimSpace(c.State.Text.String()); {
	case res.Outcome != wire.OutcomeComplete:
		reason := "the request failed"
		if res.Err != nil {
			reason = res.Err.Message
		}
		return append(effects, c.summaryFailed(reason)...)
	case res.CutOff() != "":
		return append(effects, c.summaryFailed("the summary was cut off ("+res.CutOff()+")")...)
	case text == "":
		return append(effects, c.summaryFailed("the model sent an empty summary")...)
	default:
		cp := Compaction{Summary: text, Turns: s.turns, After: wire.UserTurns(c.History)}
		effects = append(effects, c.endSummary()...)
		effects = append(effects, Record{Compaction: &cp})
		c.compacted = cp
		c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindDone})
		c.notice("From now on each request sends this summary in place of the first %d %s; the whole conversation stays saved.",
			cp.Turns, format.Plural(cp.Turns, "turn", "turns"))
		return append(effects, c.turnOver()...)
	}
}

// summaryCost adds the summary request's usage to the session's and its cost, and records
// it; the context fill stays the last turn's.
func (c *Chat) summaryCost(u *wire.Usage) []Effect {
	if u == nil {
		return nil
	}
	c.Session = c.Session.Add(*u)
	usd := c.charge(*u)
	rec := *u
	return []Effect{Record{Usage: &rec, Cost: usd}}
}

// endSummary releases the summary request.
func (c *Chat) endSummary() []Effect {
	s := c.summary
	c.summary = nil
	c.tr.EndStreaming(s.entry)
	effects := []Effect{Cancel{Cancel: s.cancel}}
	if s.src != nil {
		effects = append(effects, CloseSource{Src: s.src})
	}
	return effects
}

// summaryFailed ends the summary request after an error: the conversation is unchanged.
func (c *Chat) summaryFailed(reason string) []Effect {
	entry := c.summary.entry
	effects := c.endSummary()
	c.tr.SetEnd(entry, phase.End{Why: phase.EndFailed, Note: reason})
	c.holdQueue()
	c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindDone})
	c.notice("The summary failed: %s. Nothing changed: requests still send the conversation as before.", strings.TrimRight(reason, ". "))
	return effects
}

// stopSummary aborts the summary request (Stop): the conversation is unchanged.
func (c *Chat) stopSummary() []Effect {
	entry := c.summary.entry
	effects := c.endSummary()
	c.tr.SetEnd(entry, phase.End{Why: phase.EndStopped})
	c.notice("Compaction stopped. Nothing changed: requests still send the conversation as before.")
	return effects
}

// SetCompactions puts the compactions read back from a session log, in the order they were
// made, in the transcript where each was made (see Compaction.At), as the live session showed
// them, and the last in force: requests from now on send its summary in place of the turns it
// stands for. Call it after New or Restart.
func (c *Chat) SetCompactions(cps []Compaction) {
	if len(cps) == 0 {
		return
	}
	c.compacted = cps[len(cps)-1]
	from := cps[0].At(c.History)
	c.tr.Truncate(entryOfTurn(c.tr.Entries(), wire.UserTurns(c.History[:from])))
	for _, cp := range cps {
		at := max(cp.At(c.History), from)
		entriesFor(&c.tr, c.History[from:at], c.cfg.Tools)
		turns := wire.UserTurns(c.History[:at])
		c.tr.Add(transcript.Spec{Role: transcript.RoleAssistant,
			Text: summaryHeading(cp.Turns, max(0, turns-cp.Turns)) + cp.Summary})
		from = at
	}
	entriesFor(&c.tr, c.History[from:], c.cfg.Tools)
}

// entryOfTurn is the index of the user entry that begins the turn after the first n, or
// len(entries) when there is none.
func entryOfTurn(entries []*transcript.Entry, n int) int {
	for i, e := range entries {
		if e.Role() == transcript.RoleUser {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return len(entries)
}

// noteCompactAt marks a compaction due when the last request filled the context past
// CompactAt.
func (c *Chat) noteCompactAt() {
	if fill, ok := c.Fill(); ok && c.cfg.CompactAt > 0 && float64(fill) >= c.cfg.CompactAt*100 {
		c.compactDue = true
	}
}

// autoCompact starts the compaction CompactAt made due, once the turn has ended complete,
// saying so first.
func (c *Chat) autoCompact() []Effect {
	if !c.compactDue || c.State.Phase != phase.Complete || c.summary != nil {
		return nil
	}
	c.compactDue = false
	fill, _ := c.Fill()
	c.notice("The context is %d%% full, past compact_at = %g: compacting the conversation now (Esc stops it).", fill, c.cfg.CompactAt)
	return c.compact("")
}

// requestTokens estimates the tokens of the next request from its size (4 bytes a token):
// the system prompt, the tool definitions and the history as sent, text files included
// (images and PDFs are left out: their bytes say little of their tokens).
func (c *Chat) requestTokens() int {
	return budget.EstimateTokens(len(c.cfg.System) + c.toolBytes() + historyBytes(c.sent()))
}

// toolBytes is the size of the tool definitions every request carries (MCP's included).
func (c *Chat) toolBytes() int {
	n := 0
	if c.cfg.Tools != nil {
		for _, t := range c.cfg.Tools.Definitions() {
			n += len(t.Name) + len(t.Description) + len(t.Parameters)
		}
	}
	return n
}

// historyBytes is the size of msgs as a request sends them: text, reasoning, calls and text
// files (images and PDFs are left out: their bytes say little of their tokens).
func historyBytes(msgs []wire.Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Text()) + len(m.Reasoning())
		for _, tc := range m.Calls() {
			n += len(tc.Name) + len(tc.Arguments)
		}
		for _, f := range m.Attachments {
			if f.Kind == wire.AttachText {
				n += f.Size
			}
		}
	}
	return n
}

// noteOversize says, before a turn's first request goes, that it is estimated to exceed the
// model's window, and offers /compact; the request goes all the same.
func (c *Chat) noteOversize() {
	window := c.cfg.Budget.Window
	if window <= 0 {
		return
	}
	if n := c.requestTokens(); n > window {
		c.notice("This request is about %s tokens (estimated from its size), more than the model's window of %s: "+
			"the model will likely refuse it. /compact summarises the older turns (Esc stops this request first).",
			budget.Tokens(n), budget.Tokens(window))
	}
}
