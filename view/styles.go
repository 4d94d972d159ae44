package view

import (
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
)

// Styles is how the screen is coloured. Every cue also exists in words or glyphs, so
// PlainStyles loses no information, only colour.
//
// Color false (PlainStyles) promises a Content with no escape sequence of any kind: glamour's
// output and the composer are stripped of every escape. The lipgloss styles of a Color false
// Styles must then be empty, as PlainStyles' are.
type Styles struct {
	Color    bool
	Markdown ansi.StyleConfig // glamour's style for assistant replies

	User, Notice, Reasoning      lipgloss.Style
	Stopped, Failed, Note        lipgloss.Style // marks under a reply
	CardName, CardDetail         lipgloss.Style
	CardFocus                    lipgloss.Style // the focused card's pointer
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
		Markdown:      styles.DarkStyleConfig,
		User:          lipgloss.NewStyle().Foreground(lipgloss.Color("111")).Bold(true),
		Notice:        dim.Italic(true),
		Reasoning:     dim.Faint(true),
		Stopped:       lipgloss.NewStyle().Foreground(lipgloss.Color("214")),
		Failed:        lipgloss.NewStyle().Foreground(lipgloss.Color("203")),
		Note:          dim,
		CardName:      lipgloss.NewStyle().Bold(true),
		CardDetail:    dim,
		CardFocus:     lipgloss.NewStyle().Foreground(accent).Bold(true),
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
	return Styles{Markdown: styles.NoTTYStyleConfig}
}

// paint applies st to s; an empty s stays empty (no stray SGR pair).
func paint(st lipgloss.Style, s string) string {
	if s == "" {
		return s
	}
	return st.Render(s)
}
