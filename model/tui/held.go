package tui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/model/attach"
	"github.com/phasechat/phasechat/stream/wire"
)

// heldInput is what the user gave that waits for files to be read: files to attach (/attach,
// a pasted image, a dropped file), or a message, whose @mentions may name files. A message is
// held when it names files or when anything is held before it, so that everything goes in
// the order given and a message carries the files attached before it; so is /attach clear
// (detach), which drops the files attached before it and none attached after.
type heldInput struct {
	id      uint64
	message bool
	detach  bool   // /attach clear
	text    string // the message
	// send: Entered with the composer free, the message is sent when its turn comes (queued
	// if a reply streams by then); otherwise it joins the queue.
	send bool
	read func() ([]wire.Attachment, []string, error) // nil: nothing to read
}

// heldInputs is what waits for files, oldest first. Only the oldest's files are read at a
// time (reading names the id of the one being read): the next is read once it has gone.
type heldInputs struct {
	list    []heldInput
	lastID  uint64
	reading uint64 // the id whose files are being read; 0: none
}

// filesRead is the answer of the held input numbered id: its files read, or why not.
type filesRead struct {
	id    uint64
	files []wire.Attachment
	notes []string
	err   error
}

// holdsMessages reports whether messages wait for files: they count as queued.
func (m *Model) holdsMessages() bool { return len(m.heldTexts()) > 0 }

// heldTexts are the held messages' texts, oldest first.
func (m *Model) heldTexts() []string {
	var texts []string
	for _, in := range m.held.list {
		if in.message {
			texts = append(texts, in.text)
		}
	}
	return texts
}

// mustHold reports whether the message text, Entered now, waits for files.
func (m *Model) mustHold(text string) bool {
	return m.files != nil && (attach.MayMention(text) || len(m.held.list) > 0)
}

// holdMessage holds text, Entered with the composer free (send) or while a reply streams.
func (m *Model) holdMessage(text string, send bool) (*Model, tea.Cmd) {
	in := heldInput{message: true, text: text, send: send}
	if attach.MayMention(text) {
		read := m.files
		in.read = func() ([]wire.Attachment, []string, error) { return read.Mentioned(text) }
	}
	return m.holdInput(in)
}

// holdFiles holds files to attach, which read reads.
func (m *Model) holdFiles(read func() ([]wire.Attachment, []string, error)) (*Model, tea.Cmd) {
	return m.holdInput(heldInput{read: read})
}

// holdDetach holds /attach clear: it drops the attached files once those held before it are.
func (m *Model) holdDetach() (*Model, tea.Cmd) {
	return m.holdInput(heldInput{detach: true})
}

// holdInput holds in after what is held, and lets go of what need not wait.
func (m *Model) holdInput(in heldInput) (*Model, tea.Cmd) {
	m.held.lastID++
	in.id = m.held.lastID
	m.held.list = append(m.held.list, in)
	return m.releaseHeld()
}

// releaseHeld lets go of the held inputs from the oldest until one must wait for its files,
// and starts reading them.
func (m *Model) releaseHeld() (*Model, tea.Cmd) {
	var cmds []tea.Cmd
	for len(m.held.list) > 0 {
		in := m.held.list[0]
		if in.read != nil {
			if m.held.reading != in.id {
				m.held.reading = in.id
				read := in.read
				cmds = append(cmds, func() tea.Msg {
					files, notes, err := read()
					return filesRead{id: in.id, files: files, notes: notes, err: err}
				})
			}
			break
		}
		m.held.list = m.held.list[1:]
		var cmd tea.Cmd
		m, cmd = m.letGo(in, filesRead{id: in.id})
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// onFilesRead lets go of the oldest held input with its files, then of those after it.
// An answer for an input no longer held (taken back, dropped) is dropped.
func (m *Model) onFilesRead(msg filesRead) (*Model, tea.Cmd) {
	if len(m.held.list) == 0 || m.held.list[0].id != msg.id {
		return m, nil
	}
	in := m.held.list[0]
	m.held.list, m.held.reading = m.held.list[1:], 0
	m, cmd := m.letGo(in, msg)
	m, more := m.releaseHeld()
	return m, tea.Batch(cmd, more)
}

// letGo attaches held files, drops the attached ones (detach), or sends or queues a held
// message with its files; when its files cannot be read it says why, and a message goes back
// to the composer, after what that holds.
func (m *Model) letGo(in heldInput, read filesRead) (*Model, tea.Cmd) {
	if in.detach {
		n := m.chat.Detach()
		m.say(map[bool]string{true: "No files were attached.", false: "The attached files are dropped."}[n == 0])
		return m, nil
	}
	err := read.err
	if err == nil && in.message && in.send {
		if why := m.chat.ImagesRefused(read.files); why != "" {
			err = errors.New(why)
		}
	}
	if err != nil {
		if in.message {
			m.giveBack(in.text)
		}
		m.warn(sentence(err.Error()))
		return m, nil
	}
	notes := format.Sentence(strings.Join(read.notes, "; "))
	switch {
	case !in.message:
		m.chat.Attach(read.files...)
		if notes != "" {
			m.say(notes + " — sent with your next message.")
		}
		return m, nil
	case in.send && !m.chat.State.Phase.Streaming():
		if notes != "" {
			m.say(notes + ".")
		}
		m.follow()
		return m.after(m.chat.SubmitWith(in.text, read.files))
	}
	if notes != "" {
		m.say(notes + " — queued.")
	}
	return m.after(m.chat.EnqueueWith(in.text, read.files))
}

// giveBack puts a message whose files could not be read back into the composer: after what
// the composer holds, on a line of its own, so neither is lost.
func (m *Model) giveBack(text string) {
	if held := m.composer.Value(); strings.TrimSpace(held) != "" {
		text = held + "\n" + text
	}
	m.composer.SetValue(text)
	m.composer.MoveToEnd()
}

// unholdNewestMessage takes the newest held message out and returns its text; ok is false
// when no message is held. The files of the next held input are read if they were not.
func (m *Model) unholdNewestMessage() (text string, cmd tea.Cmd, ok bool) {
	for i := len(m.held.list) - 1; i >= 0; i-- {
		if in := m.held.list[i]; in.message {
			m.held.list = append(m.held.list[:i:i], m.held.list[i+1:]...)
			_, cmd = m.releaseHeld()
			return in.text, cmd, true
		}
	}
	return "", nil, false
}

// dropHeldMessages drops every held message and returns how many there were; held files
// still attach.
func (m *Model) dropHeldMessages() (int, tea.Cmd) {
	kept := m.held.list[:0:0]
	for _, in := range m.held.list {
		if !in.message {
			kept = append(kept, in)
		}
	}
	n := len(m.held.list) - len(kept)
	m.held.list = kept
	_, cmd := m.releaseHeld()
	return n, cmd
}

// sentence is s capitalised and ending in a full stop.
func sentence(s string) string {
	s = format.Sentence(s)
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
