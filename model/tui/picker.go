package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/view/safe"
)

// Picker is a filterable list: typing narrows it to the items holding every typed word
// (case-insensitive), Up/Down (or Ctrl+K/Ctrl+J) move the pointer, Enter chooses, Esc
// cancels. It holds no I/O; the caller owns the items and decides what a choice does.
type Picker struct {
	Title string
	Note  string // a line under the list: "Loading…", or what went wrong
	// Fuzzy also matches the typed letters in order anywhere in an item, and orders the
	// matches best first (see rank); the pointer goes to the best at every change of the
	// filter.
	Fuzzy   bool
	items   []string
	details []string // drawn after each item, not matched; nil for none
	filter  []rune
	matches []int // indexes into items, in item order
	cursor  int   // index into matches
}

// PickerOutcome is what a key did to the picker.
type PickerOutcome uint8

const (
	PickerOpen      PickerOutcome = iota // still open
	PickerChosen                         // Enter on an item: Chosen() is its index
	PickerCancelled                      // Esc
)

// NewPicker returns a picker over items, pointing at the first.
func NewPicker(title string, items []string) Picker {
	p := Picker{Title: title}
	p.SetItems(items)
	return p
}

// SetItems replaces the items, keeping the filter.
func (p *Picker) SetItems(items []string) {
	p.items = items
	p.refilter()
}

// Point moves the pointer to item i when it is shown.
func (p *Picker) Point(i int) {
	for j, m := range p.matches {
		if m == i {
			p.cursor = j
		}
	}
}

// Chosen is the index of the item under the pointer, or -1 when none is shown.
func (p Picker) Chosen() int {
	if len(p.matches) == 0 {
		return -1
	}
	return p.matches[p.cursor]
}

// Filter is the text typed so far.
func (p Picker) Filter() string { return string(p.filter) }

// pickerKeys are a Picker's keys, in the order its help line names them.
var pickerKeys = struct{ Up, Down, Choose, Cancel, Erase, ClearFilter key.Binding }{
	Up:          helped("↑/↓", "move", "up", "ctrl+k", "shift+tab"),
	Down:        named("down", "ctrl+j", "tab"),
	Choose:      helped("enter", "choose", "enter"),
	Cancel:      helped("esc", "cancel", "esc"),
	Erase:       named("backspace"),
	ClearFilter: named("ctrl+u"),
}

// pickerHelp is the line under a Picker: typing, then the keys with help.
var pickerHelp = func() string {
	words := []string{"type to filter"}
	for _, b := range []key.Binding{pickerKeys.Up, pickerKeys.Down, pickerKeys.Choose, pickerKeys.Cancel, pickerKeys.Erase, pickerKeys.ClearFilter} {
		if h := b.Help(); h.Key != "" {
			words = append(words, h.Key+" "+h.Desc)
		}
	}
	return strings.Join(words, " · ")
}()

// Key applies one key press.
func (p Picker) Key(k tea.KeyPressMsg) (Picker, PickerOutcome) {
	switch {
	case key.Matches(k, pickerKeys.Cancel):
		return p, PickerCancelled
	case key.Matches(k, pickerKeys.Choose):
		if p.Chosen() < 0 {
			return p, PickerOpen
		}
		return p, PickerChosen
	case key.Matches(k, pickerKeys.Up):
		if p.cursor > 0 {
			p.cursor--
		}
	case key.Matches(k, pickerKeys.Down):
		if p.cursor < len(p.matches)-1 {
			p.cursor++
		}
	case key.Matches(k, pickerKeys.Erase):
		if len(p.filter) > 0 {
			p.filter = p.filter[:len(p.filter)-1]
			p.refilter()
		}
	case key.Matches(k, pickerKeys.ClearFilter):
		p.filter = nil
		p.refilter()
	default:
		if k.Text != "" {
			p.filter = append(p.filter, []rune(k.Text)...)
			p.refilter()
		}
	}
	return p, PickerOpen
}

// SetDetails sets what is drawn after each item (one per item, aligned), which typing does not
// match.
func (p *Picker) SetDetails(details []string) { p.details = details }

func (p *Picker) refilter() {
	if p.Fuzzy {
		p.refilterFuzzy()
		return
	}
	words := strings.Fields(strings.ToLower(string(p.filter)))
	p.matches = p.matches[:0]
	if len(words) == 0 { // everything matches: nothing to lower-case
		for i := range p.items {
			p.matches = append(p.matches, i)
		}
		p.cursor = min(p.cursor, max(0, len(p.matches)-1))
		return
	}
	for i, it := range p.items {
		low := strings.ToLower(it)
		ok := true
		for _, w := range words {
			if !strings.Contains(low, w) {
				ok = false
				break
			}
		}
		if ok {
			p.matches = append(p.matches, i)
		}
	}
	p.cursor = min(p.cursor, max(0, len(p.matches)-1))
}

// View draws the picker in width columns and at most height rows: the title, the filter, the
// items (scrolled to keep the pointer in sight, "› " marking it) and the keys. Items are
// untrusted text and go through the sanitiser.
func (p Picker) View(width, height int) string {
	width, height = max(width, 10), max(height, 5)
	line := func(s string) string { return ansi.Truncate(s, width, "…") }
	out := []string{line(safe.Line(p.Title)), line("Filter: " + safe.Line(string(p.filter)) + "▏")}
	help := line(pickerHelp)
	rows := height - len(out) - 1
	if p.Note != "" {
		rows--
	}
	start := 0
	if p.cursor >= rows {
		start = p.cursor - rows + 1
	}
	pad := 0
	if p.details != nil {
		for _, it := range p.items {
			pad = max(pad, ansi.StringWidth(safe.Line(it)))
		}
	}
	for j := start; j < len(p.matches) && j < start+rows; j++ {
		mark := "  "
		if j == p.cursor {
			mark = "› "
		}
		i := p.matches[j]
		text := safe.Line(p.items[i])
		if i < len(p.details) && p.details[i] != "" {
			text += strings.Repeat(" ", pad-ansi.StringWidth(text)+2) + safe.Line(p.details[i])
		}
		out = append(out, line(mark+text))
	}
	if len(p.matches) == 0 && p.Note == "" {
		out = append(out, line(fmt.Sprintf("  nothing matches %q", string(p.filter))))
	}
	if p.Note != "" {
		out = append(out, line(safe.Line(p.Note)))
	}
	for len(out) < height-1 {
		out = append(out, "")
	}
	return strings.Join(append(out, help), "\n")
}
