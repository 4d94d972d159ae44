package oneshot

import (
	"fmt"
	"strings"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/safe"
)

// runner is Run's state; it belongs to Run's goroutine. It writes the turn out as the
// transcript's change journal names what changed: the replies of the turn one after another
// (each step's text on a line of its own), their calls, and phasechat's own notices.
type runner struct {
	o          Options
	chat       *chat.Chat
	changes    *transcript.Reader
	firstEntry int // the first entry of this turn's replies

	entry      *transcript.Entry // the reply being written out
	cur        int               // its index in the transcript
	textDone   int               // bytes of entry.Text() handled
	reasonDone int               // bytes of entry.Reasoning() handled
	calls      []reported        // what was reported of each of entry's cards
	clean      cleaner           // cleans entry's text for FormatText
	replies    []writtenReply    // the replies written out, in order
	openLine   bool              // the reply text written so far is not empty and does not end with '\n'
	endsInLine bool              // the last byte written to Out was not '\n' (nor, on a shared terminal, was a notice's line end written since)
	thinking   bool              // reasoning was written to Err without its line's end
	said       map[string]bool   // the notices' texts written to Err
	outErr     error
}

// reported is what was reported of a card: nothing yet, or its status then.
type reported struct {
	status phase.CallStatus
	known  bool
}

// writtenReply is a reply of the turn that was written out, and whether a line end was
// written before it to start it on a line of its own.
type writtenReply struct {
	entry   *transcript.Entry
	newLine bool
}

// progress writes out what the journal says changed since the last call: reply text,
// reasoning and tool events first, then phasechat's own notices. Entries are only appended
// during a turn, so the replies before the current one are finished.
func (r *runner) progress() {
	changes := r.changes.Changes()
	for _, c := range changes {
		if c.Entry != nil && c.Index >= max(r.cur, r.firstEntry) && c.Entry.Role() == transcript.RoleAssistant {
			r.reply(c.Entry, c.Index)
		}
	}
	for _, c := range changes {
		if c.Kind == transcript.EntryAdded && c.Index >= r.firstEntry && c.Entry.Role() == transcript.RoleNotice {
			r.notice(c.Entry)
		}
	}
}

// notice writes a notice of the turn to Err, unless the same words were written already.
func (r *runner) notice(e *transcript.Entry) {
	if r.o.Err != nil && !r.said[e.Text()] {
		r.said[e.Text()] = true
		r.note(safe.Line(e.Text())+"\n", true)
	}
}

// reply writes out what is new in reply e, the index-th entry; a reply after the current one
// becomes current once it has something to write.
func (r *runner) reply(e *transcript.Entry, index int) {
	if e != r.entry {
		if e.Text() == "" && len(e.Cards()) == 0 && e.Reasoning() == "" {
			return // nothing yet: switch once it has something
		}
		r.flushClean()
		newLine := r.openLine && e.Text() != ""
		if newLine {
			r.delta("\n") // the next step's text starts on a line of its own
		}
		r.entry, r.cur, r.textDone, r.reasonDone = e, index, 0, 0
		r.calls = r.calls[:0]
		r.clean = newCleaner(r.o.Text)
		r.replies = append(r.replies, writtenReply{e, newLine})
	}
	r.text(e)
	r.cards(e)
}

// content is the turn's reply text as written out: its replies' texts, each step's on a line
// of its own.
func (r *runner) content() string {
	var b strings.Builder
	for _, w := range r.replies {
		if w.newLine {
			b.WriteByte('\n')
		}
		b.WriteString(w.entry.Text())
	}
	return b.String()
}

func (r *runner) text(e *transcript.Entry) {
	if n := len(e.Reasoning()); n > r.reasonDone {
		delta := e.Reasoning()[r.reasonDone:]
		r.reasonDone = n
		r.event(map[string]any{"type": "reasoning", "delta": delta})
		r.note(delta, false)
		r.thinking = !strings.HasSuffix(delta, "\n")
	}
	if n := len(e.Text()); n > r.textDone {
		r.endThinking()
		delta := e.Text()[r.textDone:]
		r.textDone = n
		r.delta(delta)
	}
}

// delta writes reply text.
func (r *runner) delta(text string) {
	r.openLine = !strings.HasSuffix(text, "\n")
	r.event(map[string]any{"type": "text", "delta": text})
	if r.o.Format == FormatText {
		r.out(r.clean.Append(text))
	}
}

func (r *runner) flushClean() {
	if r.entry != nil && r.o.Format == FormatText {
		r.out(r.clean.Finish())
	}
}

// cards reports each call when it is ready to run (or refused) and when it has a result.
func (r *runner) cards(e *transcript.Entry) {
	for i, c := range e.Cards() {
		if i == len(r.calls) {
			r.calls = append(r.calls, reported{})
		}
		was := r.calls[i]
		if c.Status() == phase.CallPending || c.Status() == phase.CallArgsReady || (was.known && was.status == c.Status()) {
			continue
		}
		r.calls[i] = reported{c.Status(), true}
		if !was.known {
			r.event(map[string]any{"type": "tool_call", "id": c.ID(), "name": c.Name(), "arguments": c.Args()})
		}
		if c.Status() == phase.CallRunning {
			r.note(strings.TrimSpace("Running "+safe.ToolName(c.Name())+" "+safe.Line(c.Summary()))+"\n", true)
		}
		if c.Status().Final() {
			r.event(map[string]any{"type": "tool_result", "id": c.ID(), "name": c.Name(), "result": c.Result(), "is_error": c.IsError()})
			word := "done"
			if c.IsError() {
				line, _ := format.FirstLine(strings.TrimSpace(c.Result()))
				word = "failed: " + line
			}
			r.note(fmt.Sprintf("Tool %s %s\n", safe.ToolName(c.Name()), safe.Line(word)), true)
		}
	}
}
