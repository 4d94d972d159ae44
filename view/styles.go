package view

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Styles is how the screen is coloured. Every cue also exists in words or glyphs, so
// PlainStyles loses no information, only colour.
//
// Color false (PlainStyles) promises a Content with no escape sequence of any kind: the
// composer is stripped of every escape, and PlainMarkdown draws none. The lipgloss styles of a Color false
// Styles must then be empty, as PlainStyles' are.
type Styles struct {
	Color    bool
	Markdown MarkdownStyles // assistant replies

	User, Notice, Reasoning      lipgloss.Style
	Stopped, Failed, Note        lipgloss.Style // marks under a reply
	CardName, CardDetail         lipgloss.Style
	Pending, Running, Done, Fail lipgloss.Style // a card's status glyph and word
	Asking                       lipgloss.Style // the approval question on a card
	Status, StatusError          lipgloss.Style
	Button, ButtonFocused        lipgloss.Style
	Label, LabelDisabled         lipgloss.Style // the composer's label
	Disabled                     lipgloss.Style // the composer while it takes no input
	HelpKey, HelpDoes            lipgloss.Style
	Footer, Rule                 lipgloss.Style
}

// DefaultStyles colours the screen for a dark terminal (lipgloss v2 emits full colour; Bubble
// Tea downsamples it to what the terminal supports).
func DefaultStyles() Styles {
	dim := lipgloss.NewStyle().Foreground(lipgloss.Color("245"))
	accent := lipgloss.Color("63")
	return Styles{
		Color:         true,
		Markdown:      DarkMarkdown(),
		User:          lipgloss.NewStyle().Foreground(lipgloss.Color("111")).Bold(true),
		Notice:        dim.Italic(true),
		Reasoning:     dim.Faint(true),
		Stopped:       lipgloss.NewStyle().Foreground(lipgloss.Color("214")),
		Failed:        lipgloss.NewStyle().Foreground(lipgloss.Color("203")),
		Note:          dim,
		CardName:      lipgloss.NewStyle().Bold(true),
		CardDetail:    dim,
		Pending:       dim,
		Running:       lipgloss.NewStyle().Foreground(lipgloss.Color("75")),
		Done:          lipgloss.NewStyle().Foreground(lipgloss.Color("78")),
		Fail:          lipgloss.NewStyle().Foreground(lipgloss.Color("203")),
		Asking:        lipgloss.NewStyle().Foreground(lipgloss.Color("214")).Bold(true),
		Status:        lipgloss.NewStyle().Foreground(lipgloss.Color("252")),
		StatusError:   lipgloss.NewStyle().Foreground(lipgloss.Color("203")),
		Button:        lipgloss.NewStyle().Foreground(lipgloss.Color("252")).Background(lipgloss.Color("238")),
		ButtonFocused: lipgloss.NewStyle().Foreground(lipgloss.Color("231")).Background(accent).Bold(true),
		Label:         lipgloss.NewStyle().Foreground(lipgloss.Color("111")),
		LabelDisabled: dim,
		Disabled:      dim.Faint(true),
		HelpKey:       lipgloss.NewStyle().Foreground(lipgloss.Color("250")).Bold(true),
		HelpDoes:      dim,
		Footer:        dim,
		Rule:          lipgloss.NewStyle().Foreground(lipgloss.Color("238")),
	}
}

// PlainStyles is for NO_COLOR and tests: no colour, and no escape sequence anywhere in Content.
func PlainStyles() Styles {
	return Styles{Markdown: PlainMarkdown()}
}

// ink is a lipgloss style compiled for one-line text: the SGR it opens and closes, found once
// by rendering a probe, so drawing a frame does not run lipgloss's full Render for every
// fragment. A style that is more than colours and attributes (padding, width …) keeps Render.
type ink struct {
	pre, post string
	style     lipgloss.Style
	render    bool // use style.Render
}

func newInk(st lipgloss.Style) ink {
	const probe = "x"
	out := st.Render(probe)
	i := strings.Index(out, probe)
	if i < 0 || strings.Count(out, probe) != 1 || !ansiOnly(out[:i]) || !ansiOnly(out[i+len(probe):]) {
		return ink{style: st, render: true}
	}
	return ink{pre: out[:i], post: out[i+len(probe):]}
}

// paint styles one line of text; an empty s stays empty (no stray SGR pair).
func (k ink) paint(s string) string {
	switch {
	case s == "":
		return s
	case k.render:
		return k.style.Render(s)
	}
	return k.pre + s + k.post
}

// theme is Styles compiled for drawing.
type theme struct {
	Color    bool
	Markdown *mdPalette

	User, Notice, Reasoning      ink
	Stopped, Failed, Note        ink
	CardName, CardDetail         ink
	Pending, Running, Done, Fail ink
	Asking                       ink
	Status, StatusError          ink
	Button, ButtonFocused        ink
	Label, LabelDisabled         ink
	Disabled                     ink
	HelpKey, HelpDoes            ink
	Footer, Rule                 ink
}

func newTheme(st Styles) *theme {
	return &theme{
		Color: st.Color, Markdown: newMDPalette(st.Markdown),
		User: newInk(st.User), Notice: newInk(st.Notice), Reasoning: newInk(st.Reasoning),
		Stopped: newInk(st.Stopped), Failed: newInk(st.Failed), Note: newInk(st.Note),
		CardName: newInk(st.CardName), CardDetail: newInk(st.CardDetail),
		Pending: newInk(st.Pending), Running: newInk(st.Running), Done: newInk(st.Done), Fail: newInk(st.Fail),
		Asking: newInk(st.Asking), Status: newInk(st.Status), StatusError: newInk(st.StatusError),
		Button: newInk(st.Button), ButtonFocused: newInk(st.ButtonFocused),
		Label: newInk(st.Label), LabelDisabled: newInk(st.LabelDisabled), Disabled: newInk(st.Disabled),
		HelpKey: newInk(st.HelpKey), HelpDoes: newInk(st.HelpDoes), Footer: newInk(st.Footer), Rule: newInk(st.Rule),
	}
}

// ansiOnly reports whether s holds nothing but escape sequences.
func ansiOnly(s string) bool {
	for i := 0; i < len(s); {
		if s[i] != esc {
			return false
		}
		n, _ := escapeLen(s[i:])
		i += n
	}
	return true
}
