package view

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

var sgrSequence = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourSGR names the first SGR sequence of s that sets a colour (a foreground, background or
// underline colour, or their defaults), or returns "".
func colourSGR(s string) string {
	for _, m := range sgrSequence.FindAllStringSubmatch(s, -1) {
		for f := range strings.SplitSeq(m[1], ";") {
			head, _, _ := strings.Cut(f, ":")
			n, err := strconv.Atoi(head)
			if err != nil {
				continue
			}
			if n >= 30 && n <= 49 || n == 58 || n == 59 || n >= 90 && n <= 97 || n >= 100 && n <= 107 {
				return fmt.Sprintf("colour parameter %d in %q", n, m[0])
			}
		}
	}
	return ""
}

// reversedBefore reports whether the text before label on row is drawn reversed (SGR 7, not
// yet turned off by 27 or a reset).
func reversedBefore(row, label string) bool {
	i := strings.Index(row, label)
	if i < 0 {
		return false
	}
	on := false
	for _, m := range sgrSequence.FindAllStringSubmatch(row[:i], -1) {
		if m[1] == "" {
			on = false
		}
		for f := range strings.SplitSeq(m[1], ";") {
			switch f {
			case "0":
				on = false
			case "7":
				on = true
			case "27":
				on = false
			}
		}
	}
	return on
}

func rowWith(content, label string) string {
	for row := range strings.SplitSeq(content, "\n") {
		if strings.Contains(ansi.Strip(row), label) {
			return row
		}
	}
	return ""
}

// Mono styles (NO_COLOR) draw every scene without a colour, yet with emphasis: the focused
// Retry is reversed and the unfocused one is not, names are bold.
func TestMonoStylesKeepEmphasisWithoutColour(t *testing.T) {
	for _, sc := range scenes {
		for _, width := range []int{30, 80, 120} {
			f := sc.frame()
			f.Width = width
			f.Composer = "\x1b[38;5;63m┃\x1b[m \x1b[48;5;0;1mTry\x1b[m" // as a text area might style it
			scr := NewRenderer(MonoStyles()).Render(f)
			if msg := colourSGR(scr.Content); msg != "" {
				t.Errorf("%s at %d: %s", sc.name, width, msg)
			}
			if msg := onlySGR(scr.Content); msg != "" {
				t.Errorf("%s at %d: %s", sc.name, width, msg)
			}
			if !strings.Contains(scr.Content, "\x1b[") {
				t.Errorf("%s at %d: no emphasis at all", sc.name, width)
			}
		}
	}
	f := sceneByName("error").frame()
	f.Width = 80
	focused := NewRenderer(MonoStyles()).Render(f).Content
	if row := rowWith(focused, retryButton); !reversedBefore(row, "[ Retry") {
		t.Errorf("the focused Retry is not reversed: %q", row)
	}
	f = sceneByName("error-composer-focused").frame()
	f.Width = 80
	unfocused := NewRenderer(MonoStyles()).Render(f).Content
	if row := rowWith(unfocused, retryButton); row == "" || reversedBefore(row, "[ Retry") {
		t.Errorf("the unfocused Retry is missing or reversed: %q", row)
	}
}

// Light and dark styles colour the cues, but body text (the status line) keeps the terminal's
// own foreground, which suits its background whatever it is.
func TestColourStylesKeepTheTerminalsForegroundForBodyText(t *testing.T) {
	for name, st := range map[string]Styles{"dark": DarkStyles(), "light": LightStyles()} {
		if !st.Color || st.Status.GetForeground() != (lipgloss.NoColor{}) {
			t.Errorf("%s: status text has foreground %v, want the terminal's", name, st.Status.GetForeground())
		}
		f := sceneByName("complete").frame()
		f.Width = 80
		content := NewRenderer(st).Render(f).Content
		if colourSGR(content) == "" {
			t.Errorf("%s: no colour on screen", name)
		}
	}
	dark, light := DarkStyles(), LightStyles()
	if !dark.Dark || light.Dark {
		t.Errorf("Dark is %v for the dark styles and %v for the light ones", dark.Dark, light.Dark)
	}
	if dark.User.Render("u") == light.User.Render("u") || dark.Rule.Render("u") == light.Rule.Render("u") {
		t.Errorf("the light styles draw as the dark ones")
	}
}

// SetStyles drops everything drawn in the old styles: after it, each scene draws exactly as a
// new Renderer in the new styles draws it, also after streaming more text into a cached entry.
func TestSetStylesRedrawsEverything(t *testing.T) {
	all := map[string]Styles{"dark": DarkStyles(), "light": LightStyles(), "mono": MonoStyles(), "plain": PlainStyles()}
	for _, sc := range scenes {
		for from, a := range all {
			for to, b := range all {
				f := sc.frame()
				f.Width = 80
				r := NewRenderer(a)
				before := r.Render(f).Content
				r.SetStyles(b)
				got, want := r.Render(f).Content, NewRenderer(b).Render(f).Content
				if got != want {
					t.Errorf("%s, %s then %s: drawn as\n%q\nwant\n%q", sc.name, from, to, got, want)
				}
				if from != to && before == want {
					t.Errorf("%s: %s and %s draw the same screen", sc.name, from, to)
				}
			}
		}
	}
}

// BenchmarkRestyle is the terminal's background answer arriving with a long transcript: the
// styles switch and the next frame is drawn, at 120x40 following the tail. Only the window is
// drawn again, so the cost does not grow with the transcript.
func BenchmarkRestyle(b *testing.B) {
	for _, size := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("lines=%dk", size/1000), func(b *testing.B) {
			r := NewRenderer(DefaultStyles())
			es, total := buildTranscript(b, r, size, 120, 40)
			f := benchFrame(es, 120, 40, 0)
			r.Render(f)
			styles := []Styles{LightStyles(), DefaultStyles()}
			defer b.ReportMetric(float64(total), "rows")
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r.SetStyles(styles[i%2])
				i++
				r.Render(f)
			}
		})
	}
}
