package main

import "github.com/phasechat/phasechat/view"

// screenStyles are the full-screen chat's styles for theme (one of config.Themes), NO_COLOR
// and a dumb terminal: the styles it starts with and, for auto, the choice it makes once the
// terminal says whether its background is dark (nil: the styles are fixed). NO_COLOR beats any
// theme for colour, and emphasis stays; a dumb terminal takes no styling at all.
func screenStyles(theme string, noColor, dumb bool) (view.Styles, func(dark bool) view.Styles) {
	switch {
	case dumb:
		return view.PlainStyles(), nil
	case noColor:
		return view.MonoStyles(), nil
	case theme == "light":
		return view.LightStyles(), nil
	case theme == "dark":
		return view.DarkStyles(), nil
	}
	return view.DefaultStyles(), stylesForBackground
}

// stylesForBackground is the auto theme's choice.
func stylesForBackground(dark bool) view.Styles {
	if dark {
		return view.DarkStyles()
	}
	return view.LightStyles()
}

// dumbTerminal reports whether TERM says the terminal interprets no styling (dumb, or unset),
// as Bubble Tea's colour detection also reads it.
func dumbTerminal(environ func(key string) (string, bool)) bool {
	term, ok := environ("TERM")
	return !ok || term == "" || term == "dumb"
}
