package linemode

import (
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/view/safe"
)

// stop is Esc while a request runs: before the reply's first byte the message is taken back
// (not sent, out of the conversation) and said in words, to be typed again; after it, the
// request stops and the partial reply stays.
func (s *session) stop() {
	text, effects, ok := s.chat.Withdraw()
	if !ok {
		s.apply(s.chat.Stop())
		return
	}
	s.say(Note("Stopped before the reply began: your message was not sent: " + safe.Line(format.OneLine(text, 200))))
	s.apply(effects)
}
