package linemode

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/safe"
)

// Announcer decides what line mode prints. It is pure: it reads the transcript's change
// journal since its last call, and the engine's state, and returns the new lines (without line
// ends). Call Announce after every engine call, with the engine's State.
//
// Invariants, per call, in this order:
//   - Transcript lines come first, entry by entry in transcript order. A notice is one
//     "Note: …" line. A reply's text is printed by whole lines as each '\n' arrives, the first
//     line prefixed with "Assistant: " (leading blank lines are skipped), and so is the first
//     line after a Tool or Status line came between, so a listener knows who speaks again; its
//     open tail is printed when the reply ends, followed by one "Reasoning: N characters (not
//     read out)." line if it had reasoning. A tool call gets one "Tool: … started: …" (or "… is
//     waiting for your approval") line when it starts running or starts waiting, and one "… done
//     in …", "… failed …" or "… not run: …" line when it ends. User entries are never repeated.
//   - Then at most one "Status: …" line: when the phase differs from the last call's, or when
//     a tool newly waits for approval (the question is the status text, see doc.go). A new
//     tool name within streaming-tool prints nothing; the tool lines say it.
//   - Before a Tool or Status line, the open tail of the reply is printed as a line of its
//     own (it may end mid-sentence), so lines keep the order things happened in.
//   - Every untrusted string is sanitised: reply text through a safe.Stream fed the
//     accumulated text (an escape split across deltas cannot survive; of its sanitised text
//     only the line not printed yet is kept), everything else through safe.Line. Status and
//     Tool lines hold none of { } [ ] ".
//   - Nothing is printed twice, and cost is proportional to what changed: only the entries the
//     journal names are read, and of those only the new bytes.
//
// Entries already in the transcript when the reader was made (a resumed conversation) are
// taken as read. Entries removed are forgotten. The zero Announcer is not ready; use
// NewAnnouncer, and Close it when it is replaced.
type Announcer struct {
	phase    phase.Phase
	question string // the approval question last printed; "" once none is pending
	changes  *transcript.Reader
	open     []*seenEntry // the replies not fully announced yet, in transcript order
	touched  []touch      // the entries one call reads; kept to reuse its storage
}

// touch is an entry the journal named in one call.
type touch struct {
	entry *transcript.Entry
	index int
	added bool // it was added since the last call
}

// seenEntry is how much of one reply has been announced.
type seenEntry struct {
	entry    *transcript.Entry
	index    int
	done     bool
	text     safe.Stream // sanitises the reply, fed Entry.Text() as it grows; taken as it is decided
	fed      int         // bytes of Entry.Text() fed to text
	unsaid   []byte      // the sanitised text taken and not printed: the open line
	scanned  int         // bytes of unsaid known to hold no '\n'
	prefixed bool        // "Assistant: " has been printed, and no Tool or Status line since
	cut      bool        // the last line printed was a tail cut off mid-line
	cards    []seenCard
}

type seenCard struct{ waiting, started, ended, asking bool }

// NewAnnouncer returns an announcer for an engine whose state is st, reading the transcript's
// changes from changes (nil: a transcript that never changes).
func NewAnnouncer(st phase.State, changes *transcript.Reader) *Announcer {
	a := &Announcer{phase: st.Phase, changes: changes}
	if st.Ask != "" {
		a.question = phase.Status(st)
	}
	return a
}

// Close stops reading the transcript's changes.
func (a *Announcer) Close() { a.changes.Close() }

// statusPrefix begins the line that says the phase.
const statusPrefix = "Status: "

// Note is the line a notice of phasechat's own is announced as.
func Note(text string) string { return "Note: " + safe.Line(text) }

// Announce returns the lines that tell what changed since the last call.
func (a *Announcer) Announce(st phase.State) []string {
	var lines []string
	var q approvals
	for _, t := range a.read() {
		switch t.entry.Role() {
		case transcript.RoleNotice:
			if t.added {
				lines = append(lines, Note(t.entry.Text()))
			}
		case transcript.RoleAssistant:
			if s := a.reply(t); s != nil {
				lines = s.reply(t.entry, lines, &q)
			}
		}
	}
	a.open = slices.DeleteFunc(a.open, func(s *seenEntry) bool { return s.done })
	text := phase.Status(st)
	// The engine keeps a question in its state exactly while a call waits for approval. The
	// same words may ask about a second call: answered tells the questions apart.
	pending := st.Ask != ""
	newQuestion := pending && (q.answered || text != a.question)
	if st.Phase != a.phase || newQuestion {
		for _, s := range a.open {
			lines = s.flushTail(lines)
			s.prefixed = false
		}
		lines = append(lines, statusPrefix+spoken(text))
	}
	a.phase, a.question = st.Phase, ""
	if pending {
		a.question = text
	}
	return lines
}

// read returns the entries the journal named since the last call, each once, in transcript
// order, and forgets the replies it says were removed.
func (a *Announcer) read() []touch {
	ts := a.touched[:0]
	for _, c := range a.changes.Changes() {
		switch {
		case c.Kind == transcript.EntriesRemoved:
			gone := func(index int) bool { return index >= c.Index }
			ts = slices.DeleteFunc(ts, func(t touch) bool { return gone(t.index) })
			a.open = slices.DeleteFunc(a.open, func(s *seenEntry) bool { return gone(s.index) })
		case c.Kind == transcript.EntryAdded:
			ts = append(ts, touch{c.Entry, c.Index, true})
		case len(ts) == 0 || ts[len(ts)-1].entry != c.Entry:
			ts = append(ts, touch{c.Entry, c.Index, false})
		}
	}
	slices.SortStableFunc(ts, func(x, y touch) int { return cmp.Compare(x.index, y.index) })
	ts = slices.CompactFunc(ts, func(x, y touch) bool { return x.entry == y.entry }) // an entry's first touch says if it was added
	a.touched = ts
	return ts
}

// reply is what has been announced of the reply t names: new when it was just added; nil when
// it was there before the announcer, or is fully announced.
func (a *Announcer) reply(t touch) *seenEntry {
	if t.added {
		s := &seenEntry{entry: t.entry, index: t.index}
		a.open = append(a.open, s)
		return s
	}
	for _, s := range a.open {
		if s.entry == t.entry {
			return s
		}
	}
	return nil
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
// What is printed is not kept: only the open line is. Cost: O(new bytes) per call.
func (s *seenEntry) flushText(text string, final bool, lines []string) []string {
	if len(text) < s.fed { // the text was replaced, not grown: read the new one from its start
		s.text, s.fed, s.unsaid, s.scanned = safe.Stream{}, 0, nil, 0
	}
	s.text.Append(text[s.fed:])
	s.fed = len(text)
	if final {
		s.text.Finish()
	}
	s.unsaid = append(s.unsaid, s.text.Take()...)
	start := 0 // where the line not printed yet starts in unsaid
	for {
		nl := bytes.IndexByte(s.unsaid[start+s.scanned:], '\n')
		if nl < 0 {
			s.scanned = len(s.unsaid) - start
			break
		}
		end := start + s.scanned + nl
		lines = s.line(string(s.unsaid[start:end]), lines)
		start, s.scanned = end+1, 0
	}
	if start > 0 { // a '\n' came in this call, so what follows it is new
		s.unsaid = s.unsaid[:copy(s.unsaid, s.unsaid[start:])]
	}
	if final {
		lines = s.flushTail(lines)
	}
	return lines
}

// flushTail prints the open tail of the text (after its last '\n') as a line of its own, unless
// it is blank.
func (s *seenEntry) flushTail(lines []string) []string {
	if len(bytes.TrimSpace(s.unsaid)) > 0 {
		lines = s.line(string(s.unsaid), lines)
		s.unsaid, s.scanned, s.cut = s.unsaid[:0], 0, true
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
