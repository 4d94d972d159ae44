package linemode

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view/safe"
)

// read takes one chunk of input: keys in single-key mode, otherwise lines.
func (s *session) read(c chunk) {
	switch {
	case c.err != nil:
		s.check(fmt.Errorf("reading the input: %w", c.err))
	case c.end:
		s.inputEnded = true
		if len(s.line) > 0 { // a last line without '\n'
			s.queued = append(s.queued, string(s.line))
			s.line = nil
		}
	case c.mode == keyInput:
		keys, waiting := s.keys.Feed(c.data)
		s.escTimer = nil
		if waiting {
			s.escTimer = time.After(escWait)
		}
		for _, k := range keys {
			s.key(k)
		}
	default:
		s.line = append(s.line, c.data...)
		for {
			i := bytes.IndexByte(s.line, '\n')
			if i < 0 {
				break
			}
			s.queued = append(s.queued, strings.TrimSuffix(string(s.line[:i]), "\r"))
			s.line = s.line[i+1:]
		}
	}
}

// backToRetry says where the focus went when an empty line leaves the composer in the error
// phase. It is not a Status line: the phase did not change.
const backToRetry = "Back to Retry: Enter retries, Tab goes to the composer."

// composerFirst ends the error phase's status on a terminal when Retry cannot help and the
// composer has the focus.
const composerFirst = "The next line is sent as a new message; an empty line goes to Retry."

// key acts on one key press in single-key mode; keys that do nothing in the phase are ignored.
// While a tool waits for approval only a deliberate key answers (see chat.ApprovalKeys): y, n
// or A after the keyboard was still; any other printable key makes the answer wait again.
func (s *session) key(k Key) {
	if s.chat.Asking() && k >= ' ' && k < 0x7f {
		v, effects := s.chat.ApprovalKey(string(rune(k)))
		s.apply(effects)
		if v.Answer {
			return
		}
		if v.Hint != "" {
			s.say(v.Hint)
		}
		return
	}
	if s.chat.State.Phase.Streaming() && s.typeAhead(k) {
		return
	}
	switch k {
	case KeyEsc:
		s.stop()
	case '\n', '\r':
		if s.focus == phase.FocusRetry {
			s.apply(s.chat.Retry())
		}
	case '\t':
		if s.focus == phase.FocusRetry {
			s.chat.FocusComposer()
			s.sync()
		}
	case 0x04: // Ctrl+D
		if s.focus == phase.FocusRetry {
			s.quitting = true
		}
	}
}

// sendQueued sends the lines read so far while the composer has the focus, and quits once the
// input has ended and nothing is left to send.
func (s *session) sendQueued() {
	for !s.quitting && s.focus == phase.FocusComposer && len(s.queued) > 0 {
		text := s.queued[0]
		s.queued = s.queued[1:]
		if s.term != nil {
			s.prompted = false // the terminal echoed the line and its end
		}
		if s.choosing != nil || s.picking != nil || chat.IsCommand(text) {
			if s.term == nil {
				s.write(safe.Line(text) + "\n")
				s.prompted = false
			}
			switch {
			case s.choosing != nil:
				s.chooseModel(text)
			case s.picking != nil:
				s.pickSession(text)
			default:
				s.command(text)
			}
			continue
		}
		if t := strings.TrimSpace(text); strings.HasPrefix(t, "//") {
			text = t[1:] // "//x" sends "/x"
		}
		if strings.TrimSpace(text) == "" {
			switch {
			case s.term != nil && s.chat.State.Phase == phase.Error:
				// In the error phase an empty line goes back to Retry, Tab's way back.
				s.chat.FocusRetry()
				s.say(backToRetry)
				s.sync()
			case s.term != nil:
				s.write("You: ")
				s.prompted = true
			}
			continue
		}
		if s.term == nil { // nothing echoed a piped line: show what is sent
			s.write(safe.Line(text) + "\n")
			s.prompted = false
		}
		s.submit(text)
	}
	if s.inputEnded && s.focus == phase.FocusComposer && len(s.queued) == 0 && s.retryTimer == nil {
		s.quitting = true
	}
}
