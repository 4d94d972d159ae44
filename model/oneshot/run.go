package oneshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

// Format is what Out receives.
type Format string

const (
	FormatText  Format = "text"  // the reply's text, as it streams
	FormatJSON  Format = "json"  // one Result object at the end
	FormatJSONL Format = "jsonl" // one event per line as it happens
)

// Options wires a one-shot turn.
type Options struct {
	Chat      *chat.Chat // the engine, with CanAsk false; Run owns it until it returns
	Performer *perform.Performer
	Log       perform.Recorder // nil: nothing is recorded
	Prompt    string           // the user message, context included
	// Attachments are the files sent after Prompt.
	Attachments []wire.Attachment
	Format      Format   // "" is FormatText
	Text        TextRule // how FormatText cleans the reply: TextScreen for a terminal
	Out         io.Writer
	Err         io.Writer        // status, tool notices and reasoning; nil: none (errors still go to ErrAlways)
	ErrAlways   io.Writer        // where an error is reported even when Err is nil; nil: nowhere
	Interrupt   <-chan os.Signal // the first signal stops the turn, keeping the partial reply
	Session     string           // the session id, reported in JSON
	// SharedTerminal says Out and Err are one terminal: a notice said while the reply's line
	// is open there starts on a line of its own.
	SharedTerminal bool
}

// Run holds one turn and returns how it went. It returns once every effect it started has
// been performed. Writing to Out failing (a closed pipe) stops the turn as an error.
func Run(o Options) Result {
	if o.Format == "" {
		o.Format = FormatText
	}
	var watch ends
	perf := *o.Performer
	inner := perf.Wrap
	perf.Wrap = func(src chat.Source) chat.Source {
		if inner != nil {
			src = inner(src)
		}
		return watch.wrap(src)
	}
	r := &runner{o: o, chat: o.Chat, firstEntry: len(o.Chat.Entries()), said: map[string]bool{}}
	d := perform.NewDriver(o.Chat, &perf, o.Log)
	if why := r.chat.ImagesRefused(o.Attachments); why != "" {
		return r.finish(Result{Outcome: Failed, Error: why})
	}
	effects := r.chat.SubmitWith(o.Prompt, o.Attachments)
	if effects == nil {
		return r.finish(Result{Outcome: Failed, Error: "The prompt is empty."})
	}
	r.firstEntry = len(r.chat.Entries()) - 1 // the assistant entry the request just opened
	r.changes = r.chat.Follow()
	defer r.changes.Close()
	r.event(map[string]any{"type": "start", "session": o.Session})
	d.Apply(effects)
	var sig os.Signal
	for r.chat.State.Phase.Streaming() && r.outErr == nil {
		select {
		case msg := <-d.Results():
			d.Handle(msg)
			r.progress()
		case sig = <-o.Interrupt:
			d.Apply(r.chat.StopBySignal(signalName(sig)))
		}
	}
	if r.outErr != nil {
		d.Apply(r.chat.Stop())
	}
	d.Wait()
	r.progress()
	res := r.result(sig, watch.get())
	if watch.usageReported() {
		u := r.chat.Turn
		res.Usage = &u
		if usd, ok := r.chat.Cost(); ok {
			res.Cost = &usd
		}
	}
	return r.finish(res)
}

// result says how the turn ended.
func (r *runner) result(sig os.Signal, end *wire.Result) Result {
	res := Result{Content: r.content(), ToolCalls: []Call{}, Session: r.o.Session}
	var reasoning []string
	for _, e := range r.chat.Entries()[min(r.firstEntry, len(r.chat.Entries())):] {
		if e.Role() != transcript.RoleAssistant {
			continue
		}
		if e.Reasoning() != "" {
			reasoning = append(reasoning, e.Reasoning())
		}
		for _, c := range e.Cards() {
			res.ToolCalls = append(res.ToolCalls, Call{ID: c.ID(), Name: c.Name(), Arguments: c.Args(), Result: c.Result(), IsError: c.IsError()})
		}
	}
	res.Reasoning = strings.Join(reasoning, "\n")
	switch {
	case errors.Is(r.outErr, syscall.EPIPE):
		res.Outcome, res.Error = Failed, "Standard output was closed before the reply ended; the partial reply is kept."
	case r.outErr != nil:
		res.Outcome, res.Error = Failed, "Writing the reply failed: "+r.outErr.Error()
	case sig != nil:
		res.Outcome, res.Error = Interrupted, "Interrupted by "+signalName(sig)+"; the partial reply is kept."
	case end == nil:
		res.Outcome, res.Error = Failed, "The request ended without an answer."
	case end.Outcome == wire.OutcomeComplete && end.FinishReason == "length":
		res.Outcome, res.Error = Truncated, end.CutOff()
	case end.Outcome == wire.OutcomeComplete && endsWithToolResults(r.chat.History):
		res.Outcome, res.Error = Truncated, r.stepLimitText()
	case end.Outcome == wire.OutcomeComplete && strings.TrimSpace(res.Content) == "" && len(res.ToolCalls) == 0:
		res.Outcome, res.Error = Failed, "The model sent an empty reply."
	case end.Outcome == wire.OutcomeComplete:
		res.Outcome = Complete
	case end.Outcome == wire.OutcomeTruncated:
		res.Outcome, res.Error = Truncated, errText(end, "The reply was cut off.")
	case end.Err != nil && errors.Is(end.Err, wire.ErrStall):
		res.Outcome, res.Error = Stalled, errText(end, "The server stopped sending.")
	case end.Outcome == wire.OutcomeStopped:
		res.Outcome, res.Error = Failed, "The request was stopped."
	default:
		res.Outcome, res.Error = Failed, errText(end, "The request failed.")
	}
	res.ExitCode = exitCode(res.Outcome)
	return res
}

// stepLimitText is what the engine said when the step limit ended the turn (it names the
// limit and the steps taken), or a general sentence if it said nothing.
func (r *runner) stepLimitText() string {
	entries := r.chat.Entries()
	for i := len(entries) - 1; i >= min(r.firstEntry, len(entries)); i-- {
		if e := entries[i]; e.Role() == transcript.RoleNotice && strings.Contains(e.Text(), "--max-steps") {
			return e.Text()
		}
	}
	return "Stopped at the step limit (--max-steps) before the model answered."
}

// endsWithToolResults reports whether the turn stopped with tool results the model has not
// answered: the step limit ended it. Any other notice of the turn (a setting dropped, a
// server that failed to start) says nothing about how it ended.
func endsWithToolResults(history []wire.Message) bool {
	return len(history) > 0 && history[len(history)-1].Role == "tool"
}

func errText(end *wire.Result, fallback string) string {
	if end.Err != nil && end.Err.Message != "" {
		return end.Err.Message
	}
	return fallback
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "Ctrl+C (SIGINT)"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// finish writes the end of the output and returns res.
func (r *runner) finish(res Result) Result {
	if res.ExitCode == 0 && res.Outcome != Complete {
		res.ExitCode = exitCode(res.Outcome)
	}
	r.endThinking()
	switch r.o.Format {
	case FormatText:
		r.flushClean()
		if r.endsInLine {
			r.out("\n")
		}
	case FormatJSON:
		b, _ := json.Marshal(res)
		r.out(string(safe.JSON(b)) + "\n")
	case FormatJSONL:
		r.event(map[string]any{"type": "end", "outcome": res.Outcome, "exit_code": res.ExitCode, "error": res.Error, "usage": res.Usage, "cost_usd": res.Cost})
	}
	if res.Error != "" && !r.said[res.Error] {
		w := r.o.ErrAlways
		if w != nil {
			fmt.Fprintln(w, "phasechat: "+safe.Line(res.Error))
		}
	}
	return res
}

// out writes to Out; the first failure is kept and ends the turn.
func (r *runner) out(s string) {
	if r.outErr != nil || s == "" {
		return
	}
	if _, err := io.WriteString(r.o.Out, s); err != nil {
		r.outErr = err
		return
	}
	r.endsInLine = s[len(s)-1] != '\n'
}

// event writes one JSONL event.
func (r *runner) event(ev map[string]any) {
	if r.o.Format != FormatJSONL {
		return
	}
	b, err := json.Marshal(ev)
	if err == nil {
		r.out(string(safe.JSON(b)) + "\n")
	}
}

// endThinking ends the line of reasoning on Err before anything else is said.
func (r *runner) endThinking() {
	if r.thinking {
		r.thinking = false
		r.note("\n", false)
	}
}

// note writes status or reasoning to Err (sanitised); tool notices are prefixed.
func (r *runner) note(s string, tool bool) {
	if r.o.Err == nil || s == "" {
		return
	}
	if tool {
		r.endThinking()
		s = "phasechat: " + s
	}
	if r.o.SharedTerminal && r.endsInLine {
		s, r.endsInLine = "\n"+s, false
	}
	_, _ = io.WriteString(r.o.Err, safe.Text(s))
}
