package tui

import (
	tea "charm.land/bubbletea/v2"
)

// pastedName is what an image pasted from the clipboard is called.
const pastedName = "clipboard.png"

// pasteClipboardImage reads the clipboard's image in a command and attaches it as the files
// /attach reads are (filesRead).
func (m *Model) pasteClipboardImage() tea.Cmd {
	paste, read := m.pasteImage, m.files
	return func() tea.Msg {
		data, err := paste()
		if err != nil {
			return filesRead{err: err}
		}
		files, notes, err := read.Pasted(pastedName, data)
		return filesRead{files: files, notes: notes, err: err}
	}
}
