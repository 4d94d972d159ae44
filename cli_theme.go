package main

import "github.com/phasechat/phasechat/view"

// screenStyles are the full-screen chat's styles for theme (one of config.Themes) and
// NO_COLOR: the styles it starts with and, for auto, the choice it makes once the terminal
// says whether its background is dark (nil: the styles are fixed). NO_COLOR beats any theme
// for colour; emphasis stays.
func screenStyles(theme string, noColor bool) (view.Styles, func(dark bool) view.Styles) {
	switch {
	case noColor:
		return view.MonoStyles(), nil
	case theme == "light":
		return view.LightStyles(), nil
	case theme == "dark":
		return view.DefaultStyles(), nil
	}
	return view.DefaultStyles(), stylesForBackground
}

// stylesForBackground is the auto theme's choice.
func stylesForBackground(dark bool) view.Styles {
	if dark {
		return view.DefaultStyles()
	}
	return view.LightStyles()
}
