package linemode

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/view/safe"
)

// The queue of messages sent while a reply streams is the engine's (chat.Enqueue). On a
// terminal, where a streaming reply leaves the keyboard in single-key mode, what is typed is
// kept here until Enter queues it; every change of the queue is said in words.

// typeAhead takes a key typed while a reply streams: printable bytes build the line, Backspace
// takes back its last character, Enter queues it. It reports whether the key was taken.
func (s *session) typeAhead(k Key) bool {
	switch {
	case k == '\n' || k == '\r':
		if len(s.typed) == 0 {
			return false
		}
		text := string(s.typed)
		s.typed = nil
		s.enqueue(text)
	case k == 0x7f || k == 0x08:
		if len(s.typed) == 0 {
			return false
		}
		_, n := utf8.DecodeLastRune(s.typed)
		s.typed = s.typed[:len(s.typed)-n]
	case k >= ' ':
		s.typed = append(s.typed, byte(k))
	default:
		return false
	}
	return true
}

// enqueue queues a line typed while a reply streams, with the files its @path mentions name
// read now (as for a line sent at once), and says so; a file that cannot be read keeps the
// line out of the queue, saying why.
func (s *session) enqueue(text string) {
	if chat.IsCommand(text) {
		s.say(Note("Commands run once the reply ends: " + text + " was not queued."))
		return
	}
	files, ok := s.mentioned(text, "queued")
	if !ok {
		return
	}
	s.apply(s.chat.EnqueueWith(text, files))
	s.say(Note(fmt.Sprintf("Queued: %s, sent when this reply ends.", format.OneLine(text, 80))))
}

// sentNote is the note saying which message the engine sent from the queue since the queue
// was last seen, "" when it sent none.
func (s *session) sentNote() string {
	q := s.chat.Queued()
	// While a reply streams the queue only shrinks by sending its first message.
	note := ""
	if len(q) < len(s.queueSeen) && s.chat.State.Phase.Streaming() {
		note = Note("Sending the queued message: " + format.OneLine(s.queueSeen[0], 80))
	}
	s.queueSeen = append(s.queueSeen[:0], q...)
	return note
}

// withSentNote puts note (if any) into the announced lines after the reply before it (its
// last line is said when it ends) and before the new request's status.
func withSentNote(lines []string, note string) []string {
	if note == "" {
		return lines
	}
	at := len(lines)
	if at > 0 && strings.HasPrefix(lines[at-1], statusPrefix) {
		at--
	}
	return slices.Insert(lines, at, note)
}

// sayQueue says, after the status, that the queue waits after an error or a stop, and what
// was typed without Enter when the reply ended.
func (s *session) sayQueue() {
	q := s.chat.Queued()
	waits := s.chat.QueueWaits()
	if waits && !s.saidWaits {
		n := len(q)
		s.say(Note(fmt.Sprintf("%d queued %s %s: /queue send sends %s now, /queue clear drops %s.",
			n, format.Plural(n, "message", "messages"), format.Plural(n, "waits", "wait"),
			format.Plural(n, "it", "them"), format.Plural(n, "it", "them"))))
	}
	s.saidWaits = waits
	if len(s.typed) > 0 && !s.chat.State.Phase.Streaming() {
		s.say(Note("Typed while the reply streamed, not queued (no Enter): " + safe.Line(string(s.typed))))
		s.typed = nil
	}
}
