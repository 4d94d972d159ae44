package app

import "github.com/phasechat/phasechat/view"

// Styles are the full-screen chat's styles for the theme, NO_COLOR and a dumb terminal: the
// styles it starts with and, for auto, the choice it makes once the terminal says whether its
// background is dark (nil: the styles are fixed). NO_COLOR beats any theme for colour, and
// emphasis stays; a dumb terminal takes no styling at all.
func (s Settings) Styles() (view.Styles, func(dark bool) view.Styles) {
	switch {
	case s.Dumb:
		return view.PlainStyles(), nil
	case s.NoColor:
		return view.MonoStyles(), nil
	case s.Theme == "light":
		return view.LightStyles(), nil
	case s.Theme == "dark":
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
