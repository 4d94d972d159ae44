package view

import (
	"reflect"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/phasechat/phasechat/view/rows"
)

// TestInkPaintsAsLipgloss checks that every compiled style draws a line exactly as lipgloss
// would, that plain styles add nothing and mono styles no colour.
func TestInkPaintsAsLipgloss(t *testing.T) {
	for _, st := range []Styles{DarkStyles(), LightStyles(), MonoStyles(), PlainStyles()} {
		v := reflect.ValueOf(st)
		for i := range v.NumField() {
			style, ok := v.Field(i).Interface().(lipgloss.Style)
			if !ok {
				continue
			}
			name := v.Type().Field(i).Name
			k := rows.NewInk(style)
			for _, s := range []string{"hello", "中文 e\u0301 x", "[ Stop · Esc ]"} {
				if got, want := k.Paint(s), style.Render(s); got != want {
					t.Errorf("%s: paint %q = %q, lipgloss %q", name, s, got, want)
				}
				if !st.Color && !st.Emphasis && k.Paint(s) != s {
					t.Errorf("plain %s changes %q to %q", name, s, k.Paint(s))
				}
			}
			if msg := colourSGR(k.Paint("x")); !st.Color && msg != "" {
				t.Errorf("%s without colour: %s", name, msg)
			}
			if k.Paint("") != "" {
				t.Errorf("%s paints the empty string", name)
			}
		}
	}
	padded := lipgloss.NewStyle().Padding(0, 2).Foreground(lipgloss.Color("1"))
	if k := rows.NewInk(padded); !k.UsesRender || k.Paint("x") != padded.Render("x") {
		t.Errorf("a padded style must keep lipgloss's Render")
	}
}
