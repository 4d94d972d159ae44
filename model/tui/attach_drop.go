package tui

import (
	"os"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/attach"
	"github.com/phasechat/phasechat/stream/wire"
)

// droppedFile says whether a pasted absolute path (a file dragged into the terminal) names a
// regular file; text is what was pasted.
type droppedFile struct {
	path, text string
	isFile     bool
}

// pastedPath checks, in a command, whether a paste is a dragged file: ok is false when it is
// not a single absolute path, and the paste goes to the composer as text.
func (m *Model) pastedPath(text string) (tea.Cmd, bool) {
	path, ok := attach.DroppedPath(text)
	if !ok || m.files == nil {
		return nil, false
	}
	return func() tea.Msg {
		fi, err := os.Stat(path)
		return droppedFile{path: path, text: text, isFile: err == nil && fi.Mode().IsRegular()}
	}, true
}

// onDropped asks whether to attach a dragged file; a path that names none is pasted as text.
func (m *Model) onDropped(msg droppedFile) (*Model, tea.Cmd) {
	if !msg.isFile {
		return m.pasteText(msg.text)
	}
	m.dropped = &msg
	m.say("Attach " + msg.path + "? y attaches it; any other key pastes the path as text.")
	return m, nil
}

// answerDropped takes the key that answers the question onDropped asked: y attaches the file
// (read in a command, as /attach does); any other key pastes the path as text.
func (m *Model) answerDropped(k tea.KeyPressMsg) (*Model, tea.Cmd) {
	d := m.dropped
	m.dropped = nil
	m.say("")
	if !key.Matches(k, keys.AttachDropped.Binding) {
		return m.pasteText(d.text)
	}
	read := m.files
	return m.holdFiles(func() ([]wire.Attachment, []string, error) { return read.Read([]string{d.path}) })
}

// pasteText gives the composer text as pasted.
func (m *Model) pasteText(text string) (*Model, tea.Cmd) {
	if !m.composerEnabled() {
		return m, nil
	}
	m.focusComposer()
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(tea.PasteMsg{Content: text})
	return m, cmd
}
