package tui

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/chat"
)

// ModelItem is one model the picker offers.
type ModelItem = chat.ModelChoice

// ModelLister lists the picker's models; it runs as a command, never in Update.
type ModelLister = chat.ModelLister

// modelsMsg carries a ModelLister's answer back to Update.
type modelsMsg struct {
	items    []ModelItem
	problems []string
}

// modelPicker is the open model picker.
type modelPicker struct {
	list  Picker
	items []ModelItem
}

// OpenModelPicker opens the model picker (Ctrl+P; a /model command may call it). It returns
// the command that lists the models; nil when the session has no configured providers.
func (m *Model) OpenModelPicker() (*Model, tea.Cmd) {
	if m.models == nil {
		m.chat.Notice("No providers to switch between: name them in the config file (see docs/config.md).")
		return m, nil
	}
	list := NewPicker("Switch model — the next request goes to the one you choose", nil)
	list.Fuzzy = true
	list.Note = "Loading the models…"
	m.picker = &modelPicker{list: list}
	lister := m.models
	return m, func() tea.Msg {
		items, problems := lister(context.Background())
		return modelsMsg{items: items, problems: problems}
	}
}

// gotModels fills the open picker, pointing at the current model.
func (m *Model) gotModels(msg modelsMsg) *Model {
	if m.picker == nil {
		return m
	}
	p := *m.picker
	p.items = recentFirst(msg.items, m.recent)
	labels := make([]string, len(p.items))
	details := make([]string, len(p.items))
	provider, model := m.chat.Model()
	current := -1
	for i, it := range p.items {
		labels[i] = it.Label()
		isCurrent := it.Provider == provider && it.Model == model
		if isCurrent {
			current = i
		}
		details[i] = modelDetails(it, isCurrent)
	}
	p.list.SetItems(labels)
	p.list.SetDetails(details)
	p.list.Point(current)
	p.list.Note = ""
	switch {
	case len(msg.problems) > 0:
		p.list.Note = "Not listed: " + strings.Join(msg.problems, "; ")
	case len(msg.items) == 0:
		p.list.Note = "No models found."
	}
	m.picker = &p
	return m
}

// pickKey handles a key while the picker is open.
func (m *Model) pickKey(k tea.KeyPressMsg) (*Model, tea.Cmd) {
	p := *m.picker
	var out PickerOutcome
	p.list, out = p.list.Key(k)
	switch out {
	case PickerCancelled:
		m.picker = nil
	case PickerChosen:
		m.picker = nil
		return m.switchModel(p.items[p.list.Chosen()])
	default:
		m.picker = &p
	}
	return m, nil
}

// switchModel makes it the model of the next request and says so in the transcript; the
// engine's effects (the switch's record) are carried out as every other input's are.
func (m *Model) switchModel(it ModelItem) (*Model, tea.Cmd) {
	effects := m.chat.Switch(it)
	m.recent = append([]string{it.Label()}, slices.DeleteFunc(m.recent, func(l string) bool { return l == it.Label() })...)
	m.footer.Model, m.footer.Endpoint = it.Label(), it.Endpoint
	if it.Wire != "" {
		m.footer.Wire = it.Wire
	}
	m.chat.Notice(chat.Switched(it))
	return m.after(effects)
}

// recentFirst is items with those in recent (latest first) moved to the front, the others in
// their order.
func recentFirst(items []ModelItem, recent []string) []ModelItem {
	out := make([]ModelItem, 0, len(items))
	for _, label := range recent {
		if i := slices.IndexFunc(items, func(it ModelItem) bool { return it.Label() == label }); i >= 0 {
			out = append(out, items[i])
		}
	}
	for _, it := range items {
		if !slices.Contains(recent, it.Label()) {
			out = append(out, it)
		}
	}
	return out
}

// modelDetails is what the picker shows after a model: its context window and its price per
// million input and output tokens where known, and whether it is the current one.
func modelDetails(it ModelItem, current bool) string {
	var parts []string
	if w := it.Budget.Window; w > 0 {
		parts = append(parts, budget.Tokens(w)+" ctx")
	}
	if p := it.Budget.Price; p != nil {
		parts = append(parts, "$"+budget.PerMillion(p.In)+" in / $"+budget.PerMillion(p.Out)+" out per 1M")
	}
	if current {
		parts = append(parts, "current")
	}
	return strings.Join(parts, " · ")
}
