package main

import (
	"flag"
	"io"
	"os"
	"strings"
	"testing"

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
