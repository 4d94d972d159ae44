package app

import (
	"testing"

	"github.com/phasechat/phasechat/view"
)

// sameStyles compares two Styles by what they draw and say, field by field where it matters
// here.
func sameStyles(a, b view.Styles) bool {
	return a.Color == b.Color && a.Emphasis == b.Emphasis && a.Dark == b.Dark &&
		a.User.Render("x") == b.User.Render("x") && a.ButtonFocused.Render("x") == b.ButtonFocused.Render("x") &&
		a.Rule.Render("x") == b.Rule.Render("x")
}

// TestScreenStylesFollowThemeAndNoColor: auto starts dark and follows the background, dark and
// light are fixed, NO_COLOR is mono (emphasis, no colour) whatever the theme, and a dumb
// terminal gets no styling at all.
func TestScreenStylesFollowThemeAndNoColor(t *testing.T) {
	dark, light, mono, plain := view.DarkStyles(), view.LightStyles(), view.MonoStyles(), view.PlainStyles()
	cases := []struct {
		theme         string
		noColor, dumb bool
		start         view.Styles
		follows       bool
	}{
		{"auto", false, false, dark, true},
		{"dark", false, false, dark, false},
		{"light", false, false, light, false},
		{"auto", true, false, mono, false},
		{"dark", true, false, mono, false},
		{"light", true, false, mono, false},
		{"auto", false, true, plain, false},
		{"light", true, true, plain, false},
	}
	for _, c := range cases {
		start, follow := Settings{Theme: c.theme, NoColor: c.noColor, Dumb: c.dumb}.Styles()
		if !sameStyles(start, c.start) {
			t.Errorf("%s, NO_COLOR %v: starts in the wrong styles", c.theme, c.noColor)
		}
		if (follow != nil) != c.follows {
			t.Errorf("%s, NO_COLOR %v: follows the background %v, want %v", c.theme, c.noColor, follow != nil, c.follows)
			continue
		}
		if follow != nil && (!sameStyles(follow(true), dark) || !sameStyles(follow(false), light)) {
			t.Errorf("%s: a dark background is not drawn dark, or a light one light", c.theme)
		}
	}
	if sameStyles(dark, light) || sameStyles(dark, mono) || sameStyles(mono, plain) {
		t.Fatal("the styles compared are not told apart")
	}
}

func TestDumbTerminal(t *testing.T) {
	for _, c := range []struct {
		term string
		set  bool
		want bool
	}{{"dumb", true, true}, {"", true, true}, {"", false, true}, {"xterm-256color", true, false}} {
		env := func(key string) (string, bool) {
			if key == "TERM" {
				return c.term, c.set
			}
			return "", false
		}
		if got := dumbTerminal(env); got != c.want {
			t.Errorf("TERM %q (set %v): dumb %v, want %v", c.term, c.set, got, c.want)
		}
	}
}
