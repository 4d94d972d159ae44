package linemode

import (
	"strings"

	"github.com/phasechat/phasechat/model/attach"
	"github.com/phasechat/phasechat/stream/wire"
)

// FileReader reads the files the user attaches (/attach, @path mentions). Each file's note is
// "attached " and its chip, then what else the user should know of it (where a link led,
// secrets removed), in the order of the files.
type FileReader interface {
	Read(paths []string) (files []wire.Attachment, notes []string, err error)
	Mentioned(text string) (files []wire.Attachment, notes []string, err error)
}

// attachCommand runs /attach: paths are read and kept for the next message; "clear" drops
// them. What was attached is said in words.
func (s *session) attachCommand(arg string) {
	switch {
	case s.files == nil:
		s.say(Note("Files cannot be attached here."))
		return
	case arg == "clear":
		if s.chat.Detach() == 0 {
			s.say(Note("No files were attached."))
		} else {
			s.say(Note("The attached files are dropped."))
		}
		return
	}
	paths := attach.SplitPaths(arg)
	if len(paths) == 0 {
		s.say(Note("Usage: /attach PATH (quote a path with spaces), or /attach clear."))
		return
	}
	files, notes, err := s.files.Read(paths)
	if err != nil {
		s.say(Note(err.Error() + "."))
		return
	}
	s.chat.Attach(files...)
	for _, n := range spokenNotes(files, notes) {
		s.say(Note(n + "; sent with your next message."))
	}
}

// submit sends text, with the files its @path mentions name; a file that cannot be read
// keeps the message from being sent, saying why.
func (s *session) submit(text string) {
	if files, ok := s.mentioned(text, "sent"); ok {
		s.apply(s.chat.SubmitWith(text, files))
	}
}

// mentioned reads the files text's @path mentions name, saying what was attached; when one
// cannot be read it says so and that the message was not (what) instead, and ok is false.
func (s *session) mentioned(text, what string) (files []wire.Attachment, ok bool) {
	if s.files == nil || !attach.MayMention(text) {
		return nil, true
	}
	files, notes, err := s.files.Mentioned(text)
	if err != nil {
		s.say(Note(err.Error() + ": the message was not " + what + "."))
		return nil, false
	}
	for _, n := range spokenNotes(files, notes) {
		s.say(Note(n + "."))
	}
	return files, true
}

// spokenNotes are what the reader's notes say of files, in words rather than chips:
// "attached: notes.txt (37 lines)", then what else the note says of the file.
func spokenNotes(files []wire.Attachment, notes []string) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		if i < len(files) {
			if rest, ok := strings.CutPrefix(n, "attached "+files[i].Chip()); ok {
				n = "attached: " + files[i].Spoken() + rest
			}
		}
		out[i] = n
	}
	return out
}
