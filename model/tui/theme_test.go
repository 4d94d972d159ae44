package tui

import (
	"fmt"
	"image/color"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/view"
)

// themedScenes are the golden scenes drawn in every style: a reply with a tool card, an
// approval question, and the error phase with Retry focused.
var themedScenes = []string{"complete", "asking-approval", "error-retry-focused", "error-after-tab"}

var styleSets = []struct {
	name   string
	styles func() view.Styles
}{{"dark", view.DarkStyles}, {"light", view.LightStyles}, {"mono", view.MonoStyles}}

func sceneNamed(t *testing.T, name string) func(*harness) {
	for _, sc := range goldenScenes {
		if sc.name == name {
			return sc.drive
		}
	}
	t.Fatalf("no golden scene %s", name)
	return nil
}

// TestThemedGolden keeps whole screens, escapes and all, in the dark, light and mono styles.
// Run `go test ./model/tui -run TestThemedGolden -update` after a deliberate change and read
// the diff.
func TestThemedGolden(t *testing.T) {
	for _, th := range styleSets {
		for _, name := range themedScenes {
			t.Run(th.name+"/"+name, func(t *testing.T) {
				h := newHarness(t, sceneScenario(t, name), 80, 24)
				h.m.restyle(th.styles())
				sceneNamed(t, name)(h)
				golden.RequireEqual(t, []byte(h.m.View().Content))
			})
		}
	}
}

func sceneScenario(t *testing.T, name string) string {
	for _, sc := range goldenScenes {
		if sc.name == name {
			return sc.scenario
		}
	}
	t.Fatalf("no golden scene %s", name)
	return ""
}

// colourParam matches an SGR sequence with a colour parameter (foreground, background,
// underline colour or their defaults) anywhere in it.
var colourParam = regexp.MustCompile(`\x1b\[(?:[0-9:]*;)*(?:3[0-9]|4[0-9]|5[89]|9[0-7]|10[0-7])(?:[;:][0-9;:]*)?m`)

// In mono styles (NO_COLOR) no screen holds a colour, yet the focused Retry is reversed and
// the unfocused one (after Tab) is not, and the composer's text area keeps no colour either.
func TestMonoScreensHaveEmphasisButNoColour(t *testing.T) {
	for _, sc := range goldenScenes {
		h := newHarness(t, sc.scenario, 80, 24)
		h.m.restyle(view.MonoStyles())
		sc.drive(h)
		h.typeText("draft")
		content := h.m.View().Content
		if m := colourParam.FindString(content); m != "" {
			t.Errorf("%s: colour on screen: %q", sc.name, m)
		}
		if !strings.Contains(content, "\x1b[") {
			t.Errorf("%s: no emphasis on screen", sc.name)
		}
	}
	for _, c := range []struct {
		scene    string
		reversed bool
	}{{"error-retry-focused", true}, {"error-after-tab", false}} {
		h := newHarness(t, "error-frame", 80, 24)
		h.m.restyle(view.MonoStyles())
		sceneNamed(t, c.scene)(h)
		row := ""
		for r := range strings.SplitSeq(h.m.View().Content, "\n") {
			if strings.Contains(ansi.Strip(r), retryLabel) {
				row = r
			}
		}
		if got := regexp.MustCompile(`\x1b\[(?:[0-9]*;)*7(?:;[0-9]*)*m\[ Retry`).MatchString(row); got != c.reversed {
			t.Errorf("%s: Retry reversed %v, want %v: %q", c.scene, got, c.reversed, row)
		}
	}
}

// A terminal that answers the background question restyles the whole screen: what was drawn
// dark is drawn as a model started in the light styles draws it, and back. Until it answers
// (and when it never does) the screen keeps the styles it started with.
func TestBackgroundAnswerRestylesTheScreen(t *testing.T) {
	white, black := color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0, 0, 0, 0xff}
	drawn := func(st view.Styles) string {
		h := newHarness(t, "seed", 80, 24)
		h.m.restyle(st)
		sceneNamed(t, "complete")(h)
		return h.m.View().Content
	}
	dark, light := drawn(view.DefaultStyles()), drawn(view.LightStyles())
	if dark == light {
		t.Fatal("the light and dark screens are the same")
	}

	h := newHarness(t, "seed", 80, 24)
	h.m.restyle(view.DefaultStyles())
	h.m.stylesFor = func(isDark bool) view.Styles {
		if isDark {
			return view.DefaultStyles()
		}
		return view.LightStyles()
	}
	if !asksBackground(h.m.Init()) {
		t.Fatal("a model following the background does not ask for it at start")
	}
	sceneNamed(t, "complete")(h)
	if got := h.m.View().Content; got != dark {
		t.Fatalf("before the answer the screen is not the dark one:\n%s", got)
	}
	h.send(tea.BackgroundColorMsg{Color: white})
	if got := h.m.View().Content; got != light {
		t.Errorf("after a light answer:\n%q\nwant\n%q", got, light)
	}
	h.send(tea.BackgroundColorMsg{Color: black})
	if got := h.m.View().Content; got != dark {
		t.Errorf("after a dark answer:\n%q\nwant\n%q", got, dark)
	}

	fixed := newHarness(t, "seed", 80, 24)
	fixed.m.restyle(view.DefaultStyles())
	if asksBackground(fixed.m.Init()) {
		t.Error("a model with fixed styles asks for the background")
	}
	sceneNamed(t, "complete")(fixed)
	fixed.send(tea.BackgroundColorMsg{Color: white})
	if got := fixed.m.View().Content; got != dark {
		t.Errorf("fixed styles changed with the background:\n%s", got)
	}
}

// asksBackground reports whether cmd, or a command it batches, is the background question.
func asksBackground(cmd tea.Cmd) bool {
	want := fmt.Sprintf("%T", tea.RequestBackgroundColor())
	for _, msg := range runCmd(cmd, nil) {
		if fmt.Sprintf("%T", msg) == want {
			return true
		}
	}
	return false
}
