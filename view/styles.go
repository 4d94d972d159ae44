package view

import (
	"charm.land/lipgloss/v2"

	"github.com/phasechat/phasechat/view/markdown"
	"github.com/phasechat/phasechat/view/rows"
)

// Styles is how the screen is coloured. Every cue also exists in words or glyphs, so
// PlainStyles loses no information, only colour and emphasis.
//
// Color allows colour; Emphasis allows SGR attributes without colour (bold, faint, italic,
// underline, reverse), and Color implies it. With neither (PlainStyles) Content holds no escape
// sequence of any kind: the composer is stripped of every escape, markdown.Plain draws none, and
// the lipgloss styles must be empty, as PlainStyles' are. With Emphasis alone (MonoStyles) every
// colour parameter is removed from what the composer emits, and neither the lipgloss styles nor
// the markdown styles set one.
type Styles struct {
	Color, Emphasis bool
	// Dark says the colours are chosen for a dark background; a front end styles its own
	// widgets (the composer's text area) by it.
	Dark     bool
	Markdown markdown.Styles // assistant replies

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
	// The composer's prompt and placeholder, which the front end hands to its text area.
	Prompt, Placeholder lipgloss.Style
}

// palette is the colours one background needs; colourStyles builds Styles from it. Body text
// (the status line, card names) keeps the terminal's own foreground, which suits its
// background by construction.
type palette struct {
	dim, rule, accent, onAccent     string
	user, warn, fail, running, done string
	button, buttonText, helpKey     string
}

// DefaultStyles are the styles drawn before the terminal's background is known, and when it
// never answers: the dark ones.
func DefaultStyles() Styles { return DarkStyles() }

// DarkStyles colours the screen for a dark terminal (lipgloss v2 emits full colour; Bubble Tea
// downsamples it to what the terminal supports).
func DarkStyles() Styles {
	st := colourStyles(palette{
		dim: "245", rule: "238", accent: "63", onAccent: "231",
		user: "111", warn: "214", fail: "203", running: "75", done: "78",
		button: "238", buttonText: "252", helpKey: "250",
	})
	st.Dark, st.Markdown = true, markdown.Dark()
	return st
}

// LightStyles colours the screen for a light terminal: darker hues of the same cues, so each
// keeps its contrast on a white or pale background.
func LightStyles() Styles {
	st := colourStyles(palette{
		dim: "242", rule: "250", accent: "63", onAccent: "231",
		user: "25", warn: "130", fail: "160", running: "26", done: "28",
		button: "253", buttonText: "236", helpKey: "238",
	})
	st.Markdown = markdown.Light()
	return st
}

func colourStyles(p palette) Styles {
	fg := func(c string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(c)) }
	dim := fg(p.dim)
	return Styles{
		Color:         true,
		Emphasis:      true,
		User:          fg(p.user).Bold(true),
		Notice:        dim.Italic(true),
		Reasoning:     dim.Faint(true),
		Stopped:       fg(p.warn),
		Failed:        fg(p.fail),
		Note:          dim,
		CardName:      lipgloss.NewStyle().Bold(true),
		CardDetail:    dim,
		Pending:       dim,
		Running:       fg(p.running),
		Done:          fg(p.done),
		Fail:          fg(p.fail),
		Asking:        fg(p.warn).Bold(true),
		Status:        lipgloss.NewStyle(),
		StatusError:   fg(p.fail),
		Button:        fg(p.buttonText).Background(lipgloss.Color(p.button)),
		ButtonFocused: fg(p.onAccent).Background(lipgloss.Color(p.accent)).Bold(true),
		Label:         fg(p.user),
		LabelDisabled: dim,
		Disabled:      dim.Faint(true),
		HelpKey:       fg(p.helpKey).Bold(true),
		HelpDoes:      dim,
		Footer:        dim,
		Rule:          fg(p.rule),
		Prompt:        fg(p.helpKey),
		Placeholder:   dim,
	}
}

// MonoStyles is for NO_COLOR: no colour, but emphasis stays where it carries meaning. The
// focused control is reversed (so it differs from the unfocused one at a glance), names and
// questions are bold, asides are faint or italic.
func MonoStyles() Styles {
	plain := lipgloss.NewStyle()
	bold, faint := plain.Bold(true), plain.Faint(true)
	return Styles{
		Emphasis:      true,
		Dark:          true,
		Markdown:      markdown.Mono(),
		User:          bold,
		Notice:        plain.Italic(true),
		Reasoning:     faint.Italic(true),
		Stopped:       bold,
		Failed:        bold,
		Note:          faint,
		CardName:      bold,
		CardDetail:    faint,
		Pending:       faint,
		Running:       plain,
		Done:          plain,
		Fail:          bold,
		Asking:        bold,
		Status:        plain,
		StatusError:   bold,
		Button:        plain,
		ButtonFocused: plain.Reverse(true).Bold(true),
		Label:         bold,
		LabelDisabled: faint,
		Disabled:      faint,
		HelpKey:       bold,
		HelpDoes:      plain,
		Footer:        faint,
		Rule:          faint,
		Prompt:        plain,
		Placeholder:   faint,
	}
}

// PlainStyles is for tests and terminals that take no escapes: no colour, no emphasis, and no
// escape sequence anywhere in Content.
func PlainStyles() Styles {
	return Styles{Markdown: markdown.Plain()}
}

// escapes is which escape sequences the styles let through from renderers we do not control.
func (s Styles) escapes() escapes {
	switch {
	case s.Color:
		return keepSGR
	case s.Emphasis:
		return keepAttributes
	}
	return keepNone
}

// theme is Styles compiled for drawing.
type theme struct {
	keep     escapes // what cleaning keeps of the composer's escapes
	Markdown *markdown.Palette

	User, Notice, Reasoning      rows.Ink
	Stopped, Failed, Note        rows.Ink
	CardName, CardDetail         rows.Ink
	Pending, Running, Done, Fail rows.Ink
	Asking                       rows.Ink
	Status, StatusError          rows.Ink
	Button, ButtonFocused        rows.Ink
	Label, LabelDisabled         rows.Ink
	Disabled                     rows.Ink
	HelpKey, HelpDoes            rows.Ink
	Footer, Rule                 rows.Ink
}

func newTheme(st Styles) *theme {
	return &theme{
		keep: st.escapes(), Markdown: markdown.NewPalette(st.Markdown),
		User: rows.NewInk(st.User), Notice: rows.NewInk(st.Notice), Reasoning: rows.NewInk(st.Reasoning),
		Stopped: rows.NewInk(st.Stopped), Failed: rows.NewInk(st.Failed), Note: rows.NewInk(st.Note),
		CardName: rows.NewInk(st.CardName), CardDetail: rows.NewInk(st.CardDetail),
		Pending: rows.NewInk(st.Pending), Running: rows.NewInk(st.Running), Done: rows.NewInk(st.Done), Fail: rows.NewInk(st.Fail),
		Asking: rows.NewInk(st.Asking), Status: rows.NewInk(st.Status), StatusError: rows.NewInk(st.StatusError),
		Button: rows.NewInk(st.Button), ButtonFocused: rows.NewInk(st.ButtonFocused),
		Label: rows.NewInk(st.Label), LabelDisabled: rows.NewInk(st.LabelDisabled), Disabled: rows.NewInk(st.Disabled),
		HelpKey: rows.NewInk(st.HelpKey), HelpDoes: rows.NewInk(st.HelpDoes), Footer: rows.NewInk(st.Footer), Rule: rows.NewInk(st.Rule),
	}
}
