package main

import (
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/app"
)

// TestREADMEFlagsTableNamesEveryFlag: every chat flag is in the README's flags table, so a
// user reading it learns of each one (-m, -p, -q and --print are rows of their own or named
// with their long forms).
func TestREADMEFlagsTableNamesEveryFlag(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "| `-") {
			table.WriteString(line + "\n")
		}
	}
	var f app.Flags
	chatFlagSet(&f, io.Discard).VisitAll(func(f *flag.Flag) {
		short := len(f.Name) == 1 || f.Name == "print"
		if short || strings.Contains(table.String(), "`--"+f.Name) {
			return
		}
		t.Errorf("the README's flags table has no row for --%s", f.Name)
	})
}

// TestREADMENamesTheDemosTries: the README names the prompts the demo's first screen suggests,
// as that screen writes them.
func TestREADMENamesTheDemosTries(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	for _, try := range fixtures.DemoTries {
		if !strings.Contains(text, `"`+try.Prompt+`"`) {
			t.Errorf("the README does not name the demo's %q", try.Prompt)
		}
	}
	if want := "suggests " + map[int]string{2: "two", 3: "three", 4: "four"}[len(fixtures.DemoTries)] + " things"; !strings.Contains(text, want) {
		t.Errorf("the README does not say the demo suggests %d things (%q)", len(fixtures.DemoTries), want)
	}
}
