package tui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/model/sessions"
)

// sessionPicker lists the saved conversations in a Picker, filtered by what is typed.
type sessionPicker struct {
	open bool
	list Picker
	all  []sessions.Meta
}

type sessionsListedMsg struct {
	all []sessions.Meta
	err error
}

type sessionResumedMsg struct {
	id  string
	res sessions.Continued
	err error
}

// sessionLabel is a saved conversation as the picker lists it; its title, model and id can
// all be typed to find it.
func sessionLabel(s sessions.Meta) string {
	b := make([]byte, 0, 48+len(s.Title)+len(s.Model)+len(s.ID))
	b = s.Updated.Local().AppendFormat(b, "2006-01-02 15:04")
	b = append(b, "  "...)
	turns := strconv.Itoa(s.Turns)
	for range 3 - len(turns) { // right-aligned in three columns
		b = append(b, ' ')
	}
	b = append(b, turns...)
	b = append(b, ' ')
	b = append(b, format.Plural(s.Turns, "turn ", "turns")...)
	b = append(b, "  "...)
	b = append(b, s.Title...)
	b = append(b, "  · "...)
	b = append(b, s.Model...)
	b = append(b, " · "...)
	b = append(b, s.ID...)
	return string(b)
}

func (m *Model) openPicker() (*Model, tea.Cmd) {
	switch {
	case m.ed.convs == nil:
		m.warn("Conversations are not being saved in this session (--no-save), so there is nothing to pick from.")
		return m, nil
	case !m.composerEnabled():
		m.warn("Saved conversations can be opened once the reply has finished.")
		return m, nil
	}
	list := NewPicker("Saved conversations — the one you choose continues here", nil)
	list.Note = "Loading…"
	m.ed.picker = sessionPicker{open: true, list: list}
	convs := m.ed.convs
	return m, func() tea.Msg {
		all, err := convs.List()
		return sessionsListedMsg{all: sessions.Interactive(all), err: err}
	}
}

func (m *Model) pickerKey(k tea.KeyPressMsg) (*Model, tea.Cmd, bool) {
	p := &m.ed.picker
	if key.Matches(k, keys.Sessions.Binding, keys.Quit.Binding) {
		p.open = false
		return m, nil, true
	}
	list, outcome := p.list.Key(k)
	p.list = list
	switch outcome {
	case PickerCancelled:
		p.open = false
	case PickerChosen:
		i := list.Chosen()
		if i < 0 || i >= len(p.all) {
			return m, nil, true
		}
		id := p.all[i].ID
		p.open = false
		convs := m.ed.convs
		m.say("Opening " + id + "…")
		return m, func() tea.Msg {
			res, err := convs.Resume(id)
			return sessionResumedMsg{id: id, res: res, err: err}
		}, true
	}
	return m, nil, true
}

func (m *Model) pickerMsg(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case sessionsListedMsg:
		if !m.ed.picker.open {
			return m, nil
		}
		if msg.err != nil {
			m.ed.picker.open = false
			m.warn("The saved conversations could not be listed: " + msg.err.Error())
			return m, nil
		}
		labels := make([]string, len(msg.all))
		for i, s := range msg.all {
			labels[i] = sessionLabel(s)
		}
		m.ed.picker.all = msg.all
		m.ed.picker.list.SetItems(labels)
		m.ed.picker.list.Note = ""
		if len(labels) == 0 {
			m.ed.picker.list.Note = "No saved conversations yet."
		}
	case sessionResumedMsg:
		if msg.err != nil {
			m.warn("The conversation could not be opened: " + msg.err.Error())
			return m, nil
		}
		if !m.composerEnabled() {
			m.warn("A reply started meanwhile; the conversation was not opened.")
			return m, nil
		}
		m.log = msg.res.Log
		m.chat.Restart(msg.res.History)
		m.chat.SetCompactions(msg.res.Compactions)
		m.chat.SetTallies(msg.res.Tallies)
		if msg.res.Notice != "" {
			m.chat.Notice(msg.res.Notice)
		}
		m.follow()
		m.say("Continuing " + msg.id + ".")
		return m.after(nil)
	}
	return m, nil
}

// pickerView draws the session picker over the whole screen.
func (m *Model) pickerView() string { return m.ed.picker.list.View(m.width, m.liveHeight()) }
