package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/view"
	"github.com/phasechat/phasechat/view/safe"
)

// sessionPicker lists the saved conversations, filtered by what is typed.
type sessionPicker struct {
	open    bool
	loading bool
	all     []sessions.Meta
	filter  string
	sel     int // index into shown()
}

type sessionsListedMsg struct {
	all []sessions.Meta
	err error
}

type sessionResumedMsg struct {
	id  string
	res Resumed
	err error
}

// shown is the sessions whose title, id or model contain the filter (ignoring case).
func (p sessionPicker) shown() []sessions.Meta {
	if p.filter == "" {
		return p.all
	}
	f := strings.ToLower(p.filter)
	var out []sessions.Meta
	for _, s := range p.all {
		if strings.Contains(strings.ToLower(s.Title), f) || strings.Contains(s.ID, f) || strings.Contains(strings.ToLower(s.Model), f) {
			out = append(out, s)
		}
	}
	return out
}

func (m Model) openPicker() (Model, tea.Cmd) {
	switch {
	case m.ed.convs == nil:
		m.warn("Conversations are not being saved in this session (--no-save), so there is nothing to pick from.")
		return m, nil
	case !m.composerEnabled():
		m.warn("Saved conversations can be opened once the reply has finished.")
		return m, nil
	}
	m.ed.picker = sessionPicker{open: true, loading: true}
	convs := m.ed.convs
	return m, func() tea.Msg {
		all, err := convs.List()
		return sessionsListedMsg{all: all, err: err}
	}
}

func (m Model) pickerKey(k tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	p := &m.ed.picker
	shown := p.shown()
	switch k.String() {
	case "esc", "ctrl+s", "ctrl+c":
		p.open = false
		return m, nil, true
	case "up", "ctrl+p":
		p.sel = max(0, p.sel-1)
	case "down", "ctrl+n":
		p.sel = min(max(0, len(shown)-1), p.sel+1)
	case "backspace":
		if r := []rune(p.filter); len(r) > 0 {
			p.filter, p.sel = string(r[:len(r)-1]), 0
		}
	case "enter":
		if p.sel >= len(shown) {
			return m, nil, true
		}
		id := shown[p.sel].ID
		p.open = false
		convs := m.ed.convs
		m.say("Opening " + id + "…")
		return m, func() tea.Msg {
			res, err := convs.Resume(id)
			return sessionResumedMsg{id: id, res: res, err: err}
		}, true
	default:
		if k.Text != "" {
			p.filter += k.Text
			p.sel = 0
		}
	}
	return m, nil, true
}

func (m Model) pickerMsg(msg tea.Msg) (Model, tea.Cmd) {
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
		m.ed.picker.loading, m.ed.picker.all = false, msg.all
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
		if msg.res.Notice != "" {
			m.chat.Entries = append(m.chat.Entries, &view.Entry{Role: view.RoleNotice, Text: msg.res.Notice})
		}
		m.scrollUp = 0
		m.say("Continuing " + msg.id + ".")
		return m.after(nil)
	}
	return m, nil
}

// pickerView draws the picker over the whole screen: a pure function of its state.
func (m Model) pickerView() string {
	p := m.ed.picker
	w := max(m.width, 10)
	lines := []string{
		"Saved conversations — type to filter · ↑/↓ choose · Enter opens · Esc closes",
		"Filter: " + safe.Line(p.filter),
		"",
	}
	shown := p.shown()
	switch {
	case p.loading:
		lines = append(lines, "  Loading…")
	case len(p.all) == 0:
		lines = append(lines, "  No saved conversations yet.")
	case len(shown) == 0:
		lines = append(lines, "  No conversation matches.")
	}
	room := max(1, m.height-len(lines))
	top := 0
	if p.sel >= room {
		top = p.sel - room + 1
	}
	for i := top; i < len(shown) && i < top+room; i++ {
		s := shown[i]
		mark := "  "
		if i == p.sel {
			mark = "› "
		}
		lines = append(lines, fmt.Sprintf("%s%s  %s  %3d %s  %s", mark, s.Updated.Local().Format("2006-01-02 15:04"), s.ID,
			s.Turns, plural(s.Turns, "turn ", "turns"), safe.Line(s.Title)))
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:max(1, min(len(lines), m.height))], "\n")
}
