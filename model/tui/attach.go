package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/attach"
	"github.com/phasechat/phasechat/stream/wire"
)

// FileReader reads the files the user attaches. It reads files: the model calls it only
// from a command.
type FileReader interface {
	// Read reads each path as an attachment; notes say what was attached.
	Read(paths []string) (files []wire.Attachment, notes []string, err error)
	// Mentioned reads the files text's @path mentions name.
	Mentioned(text string) (files []wire.Attachment, notes []string, err error)
}

// filesRead is a FileReader's answer. With send set it answers a message's @mentions: the
// message is sent with the files, or, when one cannot be read, goes back to the composer.
type filesRead struct {
	files []wire.Attachment
	notes []string
	err   error
	send  bool
	text  string
}

// attachCommand runs /attach: "clear" drops the files attached, paths are read in a command.
func (m *Model) attachCommand(arg string) (*Model, tea.Cmd) {
	if m.files == nil {
		m.warn("Files cannot be attached here.")
		return m, nil
	}
	if arg == "clear" {
		n := m.chat.Detach()
		m.composer.Reset()
		m.say(map[bool]string{true: "No files were attached.", false: "The attached files are dropped."}[n == 0])
		return m, nil
	}
	paths := attach.SplitPaths(arg)
	if len(paths) == 0 {
		m.warn("Usage: /attach PATH… (quote a path with spaces), or /attach clear.")
		return m, nil
	}
	m.composer.Reset()
	read := m.files
	return m, func() tea.Msg {
		files, notes, err := read.Read(paths)
		return filesRead{files: files, notes: notes, err: err}
	}
}

// sendWithMentions sends text once the files its @mentions name are read.
func (m *Model) sendWithMentions(text string) tea.Cmd {
	read := m.files
	return func() tea.Msg {
		files, notes, err := read.Mentioned(text)
		return filesRead{files: files, notes: notes, err: err, send: true, text: text}
	}
}

// onFilesRead attaches what was read, or says why it could not be; a message waiting for its
// mentions is sent, or put back in the composer.
func (m *Model) onFilesRead(msg filesRead) (*Model, tea.Cmd) {
	if msg.err != nil {
		if msg.send && strings.TrimSpace(m.composer.Value()) == "" {
			m.composer.SetValue(msg.text)
			m.composer.MoveToEnd()
		}
		m.warn(capitalise(msg.err.Error()) + ".")
		return m, nil
	}
	if !msg.send {
		m.chat.Attach(msg.files...)
		if len(msg.notes) > 0 {
			m.say(capitalise(strings.Join(msg.notes, "; ")) + " — sent with your next message.")
		}
		return m, nil
	}
	if len(msg.notes) > 0 {
		m.say(capitalise(strings.Join(msg.notes, "; ")) + ".")
	}
	m.follow()
	return m.after(m.chat.SubmitWith(msg.text, msg.files))
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
