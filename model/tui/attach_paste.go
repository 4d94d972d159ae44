package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/stream/wire"
)

// pastedName is what an image pasted from the clipboard is called.
const pastedName = "clipboard.png"

// pasteClipboardImage reads the clipboard's image in a command and attaches it as the files
// /attach reads are (held.go).
func (m *Model) pasteClipboardImage() (*Model, tea.Cmd) {
	paste, read := m.pasteImage, m.files
	return m.holdFiles(func() ([]wire.Attachment, []string, error) {
		data, err := paste()
		if err != nil {
			return nil, nil, err
		}
		return read.Pasted(pastedName, data)
	})
}
