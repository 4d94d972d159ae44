package linemode

import (
	"strings"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/safe"
)

// Announcer decides what line mode prints. It is pure: it compares the engine's state and
// transcript after an engine call with what it has already announced, and returns the new
// lines (without line ends). Call Announce after every engine call, with the engine's State
// and Entries.
//
// Invariants, per call, in this order:
//   - Transcript lines come first, entry by entry. A notice is one "Note: …" line. A reply's
//     text is printed by whole lines as each '\n' arrives, the first line prefixed with
//     "Assistant: " (leading blank lines are skipped), and so is the first line after a
//     Tool or Status line came between, so a listener knows who speaks again; its open tail is printed when the reply
//     ends, followed by one "Reasoning: N characters (not read out)." line if it had
//     reasoning. A tool call gets one "Tool: … started: …" (or "… is waiting for your
//     approval") line when it starts running or starts waiting, and one "… done in …",
//     "… failed …" or "… not run: …" line when it ends. User entries are never repeated.
//   - Then at most one "Status: …" line: when the phase differs from the last call's, or when
//     a tool newly waits for approval (the question is the status text, see doc.go). A new
//     tool name within streaming-tool prints nothing; the tool lines say it.
//   - Before a Tool or Status line, the open tail of the reply is printed as a line of its
//     own (it may end mid-sentence), so lines keep the order things happened in.
//   - Every untrusted string is sanitised: reply text through a safe.Stream fed the
//     accumulated text (an escape split across deltas cannot survive), everything else
//     through safe.Line. Status and Tool lines hold none of { } [ ] ".
//   - Nothing is printed twice, and cost is proportional to what is new.
//
// The transcript must only grow (entries appended, never removed): line mode does not offer
// Regenerate. Entries already in it when the Announcer is made (a resumed conversation) are
// taken as read. The zero Announcer is not ready; use NewAnnouncer.
type Announcer struct {
	phase    phase.Phase
	question string // the approval question last printed; "" once none is pending
	next     int    // entries before next are final and fully announced
	seen     map[*transcript.Entry]*seenEntry
}

// seenEntry is how much of one entry has been announced.
type seenEntry struct {
	done     bool
	text     safe.Stream // the reply's sanitised text, fed Entry.Text() as it grows
	fed      int         // bytes of Entry.Text() fed to text
	printed  int         // bytes of text.String() printed
	scanned  int         // bytes of text.String() known to hold no '\n' after printed
	prefixed bool        // "Assistant: " has been printed, and no Tool or Status line since
	cut      bool        // the last line printed was a tail cut off mid-line
	cards    []seenCard
}

type seenCard struct{ waiting, started, ended, asking bool }

// NewAnnouncer returns an announcer for an engine whose state and transcript are st and
// entries; nothing in them will be announced.
func NewAnnouncer(st phase.State, entries []*transcript.Entry) *Announcer {
	a := &Announcer{phase: st.Phase, next: len(entries), seen: map[*transcript.Entry]*seenEntry{}}
	if st.Ask != "" {
		a.question = phase.Status(st)
	}
	return a
}

// Note is the line a notice of phasechat's own is announced as.
func Note(text string) string { return "Note: " + safe.Line(text) }

// Announce returns the lines that tell what changed since the last call.
func (a *Announcer) Announce(st phase.State, entries []*transcript.Entry) []string {
	var lines []string
	var q approvals
	for i := a.next; i < len(entries); i++ {
		e := entries[i]
		s := a.seen[e]
		if s == nil {
			s = &seenEntry{}
			a.seen[e] = s
		}
		if s.done {
			continue
		}
		switch e.Role() {
		case transcript.RoleNotice:
			lines = append(lines, Note(e.Text()))
			s.done = true
		case transcript.RoleAssistant:
			lines = s.reply(e, lines, &q)
		default:
			s.done = true
		}
	}
	for a.next < len(entries) && a.seen[entries[a.next]] != nil && a.seen[entries[a.next]].done {
		delete(a.seen, entries[a.next])
		a.next++
	}
	text := phase.Status(st)
	// The engine keeps a question in its state exactly while a call waits for approval. The
	// same words may ask about a second call: answered tells the questions apart.
	pending := st.Ask != ""
	newQuestion := pending && (q.answered || text != a.question)
	if st.Phase != a.phase || newQuestion {
		for _, e := range entries[a.next:] {
			if s := a.seen[e]; s != nil && !s.done {
				lines = s.flushTail(lines)
				s.prefixed = false
			}
		}
		lines = append(lines, "Status: "+spoken(text))
	}
	a.phase, a.question = st.Phase, ""
	if pending {
		a.question = text
	}
	return lines
}

// reply announces an assistant entry's new text and tool events; when the entry no longer
// streams, it flushes the rest and the reasoning line, and is done.
func (s *seenEntry) reply(e *transcript.Entry, lines []string, q *approvals) []string {
	final := !e.Streaming()
	lines = s.flushText(e.Text(), final, lines)
	if tools := s.toolLines(e.Cards(), nil, q); len(tools) > 0 {
		lines = append(s.flushTail(lines), tools...)
		s.prefixed = false
	}
	if final {
		if e.Reasoning() != "" {
			lines = append(lines, reasoningLine(e.Reasoning()))
		}
		if e.Mark() == transcript.MarkCutOff {
			lines = append(lines, Note(e.Note()))
		}
		s.done = true
	}
	return lines
}

// flushText prints the complete lines of text not printed yet, and on final the open tail.
// Cost: O(new bytes) per call.
func (s *seenEntry) flushText(text string, final bool, lines []string) []string {
	if len(text) < s.fed { // the text was replaced, not grown: read the new one from its start
		s.text, s.fed, s.printed, s.scanned = safe.Stream{}, 0, 0, 0
	}
	s.text.Append(text[s.fed:])
	s.fed = len(text)
	if final {
		s.text.Finish()
	}
	out := s.text.String()
	for {
		nl := strings.IndexByte(out[s.printed+s.scanned:], '\n')
		if nl < 0 {
			s.scanned = len(out) - s.printed
			break
		}
		end := s.printed + s.scanned + nl
		lines = s.line(out[s.printed:end], lines)
		s.printed, s.scanned = end+1, 0
	}
	if final {
		lines = s.flushTail(lines)
	}
	return lines
}

// flushTail prints the open tail of the text (after its last '\n') as a line of its own, unless
// it is blank.
func (s *seenEntry) flushTail(lines []string) []string {
	out := s.text.String()
	if tail := out[s.printed:]; strings.TrimSpace(tail) != "" {
		lines = s.line(tail, lines)
		s.printed, s.scanned, s.cut = len(out), 0, true
	}
	return lines
}

// line appends one line of reply text, without trailing blanks (nor leading ones when it
// continues a cut tail); the first that is not blank carries "Assistant: ".
func (s *seenEntry) line(text string, lines []string) []string {
	text = strings.TrimRight(text, " \t")
	if s.cut { // the rest of a line whose start was printed already
		text, s.cut = strings.TrimLeft(text, " \t"), false
		if text == "" {
			return lines
		}
	}
	if !s.prefixed {
		if strings.TrimSpace(text) == "" {
			return lines
		}
		s.prefixed = true
		return append(lines, "Assistant: "+text)
	}
	return append(lines, text)
}

// approvals is what the cards say about approval questions in one Announce call.
type approvals struct {
	answered bool // a card that waited no longer does
}

// toolLines announces each card's start and end once, and notes answered approvals in q.
func (s *seenEntry) toolLines(cards []transcript.Card, lines []string, q *approvals) []string {
	for i := range cards {
		c := &cards[i]
		if i == len(s.cards) {
			s.cards = append(s.cards, seenCard{})
		}
		seen := &s.cards[i]
		if seen.asking && !c.Asking() {
			q.answered = true
		}
		seen.asking = c.Asking()
		if seen.ended {
			continue
		}
		switch {
		case c.Status() == phase.CallDone:
			lines = append(lines, toolDone(c))
			seen.ended = true
		case c.Status().Failed():
			lines = append(lines, toolFailed(c, seen.started))
			seen.ended = true
		case c.Asking():
			if !seen.waiting {
				lines = append(lines, toolWaiting(c))
				seen.waiting = true
			}
		case c.Queued() > 0: // said once it starts
		case c.Status() == phase.CallRunning:
			if !seen.started {
				lines = append(lines, toolStarted(c))
				seen.started = true
			}
		}
	}
	return lines
}
