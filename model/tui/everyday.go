package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/phase"
)

// Conversations lets the chat start a new conversation and go back to a saved one. The
// implementation owns the recordings: the one it returns last is where records go.
type Conversations interface {
	// New ends the current conversation's recording (in the background) and begins a new
	// one's. It must not block: it is called from Update.
	New() perform.Recorder
	// List returns the saved conversations, the latest first. It reads files: it is called
	// from a command.
	List() ([]sessions.Meta, error)
	// Resume ends the current recording and continues the saved session id. It reads files:
	// it is called from a command.
	Resume(id string) (sessions.Continued, error)
}

// everyday is the state of the keys users reach for first: prompt history, the editor chord,
// the note on the status line, the double Ctrl+C, the session picker. It belongs to Update.
type everyday struct {
	history   []string // earlier prompts, oldest first
	histPos   int      // the prompt recalled, as an index into history; len(history) when none
	histDraft string   // the draft put aside when browsing began
	histShown string   // the text recall put in the composer: browsing goes on while it is unchanged

	note      string // shown on the status line until the next key
	noteError bool
	quitArmed bool // Ctrl+C cleared the draft: the next Ctrl+C quits
	chordX    bool // Ctrl+X was pressed: Ctrl+E opens the editor

	remember  func(string) error
	clipboard func(string) error
	convs     Conversations
	picker    sessionPicker
}

func newEveryday(o Options) everyday {
	h := append([]string(nil), o.History...)
	return everyday{history: h, histPos: len(h), remember: o.Remember, clipboard: o.Clipboard, convs: o.Conversations}
}

func (m *Model) say(text string) { m.ed.note, m.ed.noteError = text, false }
func (m *Model) warn(text string) {
	m.ed.note, m.ed.noteError = text, true
}

// everydayKey handles the everyday keys before the phase's own; ok is false for a key it
// leaves to them.
func (m *Model) everydayKey(k tea.KeyPressMsg) (*Model, tea.Cmd, bool) {
	if m.picker != nil {
		return m, nil, false // the model picker has the keys
	}
	m.ed.note, m.ed.noteError = "", false
	armed, chord := m.ed.quitArmed, m.ed.chordX
	m.ed.quitArmed, m.ed.chordX = false, false
	if m.ed.picker.open {
		return m.pickerKey(k)
	}
	switch {
	case key.Matches(k, keys.Quit.Binding) && !armed && m.composer.Value() != "":
		m.composer.Reset()
		m.resetHistory()
		m.ed.quitArmed = true
		m.say("Draft cleared. Press Ctrl+C again to quit.")
		return m, nil, true
	case key.Matches(k, keys.Quit.Binding) && !armed && m.queued():
		m, cmd := m.dropQueue()
		return m, cmd, true
	case key.Matches(k, keys.EditQueued.Binding) && m.canEditQueued():
		m, cmd := m.editQueued()
		return m, cmd, true
	case key.Matches(k, keys.EditorChord.Binding):
		m.ed.chordX = true
		m.say("Ctrl+X: press Ctrl+E to edit the draft in $EDITOR.")
		return m, nil, true
	case key.Matches(k, keys.Editor.Binding), chord && key.Matches(k, keys.EditorChordEnd.Binding):
		if !m.composerEnabled() {
			m.warn("The draft can be edited once the reply has finished.")
			return m, nil, true
		}
		return m, openEditor(m.composer.Value()), true
	case key.Matches(k, keys.Copy.Binding):
		m, cmd := m.copyReply(nil)
		return m, cmd, true
	case key.Matches(k, keys.PasteImage.Binding) && m.canPasteImage():
		m, cmd := m.pasteClipboardImage()
		return m, cmd, true
	case key.Matches(k, keys.Sessions.Binding):
		m, cmd := m.openPicker()
		return m, cmd, true
	}
	if !m.composerEnabled() || m.focus() != phase.FocusComposer {
		return m, nil, false
	}
	value := m.composer.Value()
	switch {
	case key.Matches(k, keys.Earlier.Binding):
		if len(m.ed.history) > 0 && (value == "" || value == m.ed.histShown) && m.ed.histPos > 0 {
			if m.ed.histPos == len(m.ed.history) {
				m.ed.histDraft = value
			}
			m.ed.histPos--
			m.recall(m.ed.history[m.ed.histPos])
			return m, nil, true
		}
	case key.Matches(k, keys.Later.Binding):
		if m.ed.histPos < len(m.ed.history) && value == m.ed.histShown {
			m.ed.histPos++
			if m.ed.histPos == len(m.ed.history) {
				m.recall(m.ed.histDraft)
				m.ed.histShown = ""
			} else {
				m.recall(m.ed.history[m.ed.histPos])
			}
			return m, nil, true
		}
	case key.Matches(k, keys.Complete.Binding):
		if m.completeTyped() {
			return m, nil, true
		}
	case key.Matches(k, keys.Send.Binding):
		if chat.IsCommand(value) {
			m, cmd := m.runCommand(value)
			return m, cmd, true
		}
	}
	return m, nil, false
}

// completeTyped completes the command or the @mention being typed, if one is; while a reply
// streams too, so that a Tab typed ahead is not lost.
func (m *Model) completeTyped() bool {
	if value := m.composer.Value(); isCommandWord(value) {
		m.complete(value)
		return true
	}
	if at, query, ok := m.mentionOpen(); ok {
		m.completeMention(at, query)
		return true
	}
	return false
}

// recall puts text in the composer, the cursor at its end.
func (m *Model) recall(text string) {
	m.composer.SetValue(text)
	m.composer.MoveToEnd()
	m.ed.histShown = text
}

func (m *Model) resetHistory() {
	m.ed.histPos, m.ed.histShown, m.ed.histDraft = len(m.ed.history), "", ""
}

// sent keeps a prompt that was just sent in the history (once, as the newest) and returns the
// command that keeps it for later sessions.
func (m *Model) sent(text string) tea.Cmd {
	h := m.ed.history[:0:0]
	for _, p := range m.ed.history {
		if p != text {
			h = append(h, p)
		}
	}
	m.ed.history = append(h, text)
	m.resetHistory()
	if m.ed.remember == nil {
		return nil
	}
	remember := m.ed.remember
	return func() tea.Msg {
		if err := remember(text); err != nil {
			return noteMsg{text: "The prompt history could not be saved: " + err.Error(), error: true}
		}
		return nil
	}
}

// noteMsg puts a note on the status line from a command.
type noteMsg struct {
	text  string
	error bool
}

// statusNote is what the status line shows instead of the phase's status: the note, when a
// command waits for the reply to end, so; or while a command is typed, the commands it may
// become.
func (m *Model) statusNote() (string, bool) {
	if m.ed.note != "" {
		return m.ed.note, m.ed.noteError
	}
	if note := m.afterReplyNote(); note != "" {
		return note, false
	}
	if _, query, ok := m.mentionOpen(); ok && m.composerEnabled() {
		return m.mentionNote(query)
	}
	if v := m.composer.Value(); isCommandWord(v) && m.composerEnabled() {
		if names, _ := chat.CompleteCommand(v); len(names) > 0 {
			return strings.Join(names, "  ") + "   (Tab completes)", false
		}
		return "No command starts with " + v + " — /help lists them; // sends a slash.", true
	}
	return "", false
}

// everydayMsg handles the messages of the everyday commands; ok is false for any other.
func (m *Model) everydayMsg(msg tea.Msg) (*Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case noteMsg:
		if msg.error {
			m.warn(msg.text)
		} else {
			m.say(msg.text)
		}
		return m, nil, true
	case editorReadyMsg, editorDoneMsg:
		m, cmd := m.editorMsg(msg)
		return m, cmd, true
	case sessionsListedMsg, sessionResumedMsg:
		m, cmd := m.pickerMsg(msg)
		return m, cmd, true
	}
	return m, nil, false
}
