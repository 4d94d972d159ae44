package tui

import (
	"errors"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/safefile"
)

// editorReadyMsg says the draft was written to path, for the editor to open.
type editorReadyMsg struct {
	path string
	err  error
}

// editorDoneMsg brings back the edited draft: err is the editor's failure, readErr the
// draft's (unreadable, not a regular file, or over maxDraftBytes).
type editorDoneMsg struct {
	text    string
	err     error
	readErr error
}

// maxDraftBytes bounds the draft read back from the editor: the file is the editor's to
// replace, and a link to a device or an endless file must not hang or flood the chat.
const maxDraftBytes = 1 << 20

// readDraft reads the edited draft back through the same checks as every file phasechat
// reads (no devices, FIFOs or links to them; at most maxDraftBytes).
func readDraft(path string) (string, error) {
	data, err := safefile.ReadFile(path, maxDraftBytes)
	return string(data), err
}

// openEditor writes the draft to a private temporary file; the editor runs once it is there.
func openEditor(draft string) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "phasechat-draft-*.md")
		if err != nil {
			return editorReadyMsg{err: err}
		}
		_, err = f.WriteString(draft)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return editorReadyMsg{err: err}
		}
		return editorReadyMsg{path: f.Name()}
	}
}

// editorCommand is $VISUAL, else $EDITOR, else vi, split into words ("code -w" works).
func editorCommand(path string) *exec.Cmd {
	line := os.Getenv("VISUAL")
	if strings.TrimSpace(line) == "" {
		line = os.Getenv("EDITOR")
	}
	words := strings.Fields(line)
	if len(words) == 0 {
		words = []string{"vi"}
	}
	return exec.Command(words[0], append(words[1:], path)...)
}

func (m *Model) editorMsg(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case editorReadyMsg:
		if msg.err != nil {
			m.warn("The draft could not be written for the editor: " + msg.err.Error())
			return m, nil
		}
		path := msg.path
		// The program suspends the screen while the editor runs and restores it after.
		return m, tea.ExecProcess(editorCommand(path), func(err error) tea.Msg {
			defer os.Remove(path)
			if err != nil {
				return editorDoneMsg{err: err}
			}
			text, rerr := readDraft(path)
			return editorDoneMsg{text: text, readErr: rerr}
		})
	case editorDoneMsg:
		if msg.readErr != nil {
			m.warn("The edited draft was not put back (" + msg.readErr.Error() + "); the draft is unchanged.")
			return m, nil
		}
		if msg.err != nil {
			var exit *exec.ExitError
			if errors.As(msg.err, &exit) {
				m.warn("The editor exited with status " + exit.String() + "; the draft is unchanged.")
			} else {
				m.warn("The editor could not be run (set $VISUAL or $EDITOR): " + msg.err.Error())
			}
			return m, nil
		}
		if !m.composerEnabled() {
			m.warn("The reply started meanwhile; the edited draft was not put back.")
			return m, nil
		}
		m.composer.SetValue(strings.TrimRight(msg.text, "\n"))
		m.composer.MoveToEnd()
		m.focusComposer()
		m.say("Draft edited.")
	}
	return m, nil
}
