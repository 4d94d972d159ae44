package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/phasechat/phasechat/model/app"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/view/safe"
)

const sessionsUsage = `Usage:
  phasechat sessions list [--all] [--json]              saved conversations, the latest first
                                                        (--all: one-shot runs too)
  phasechat sessions show ID                            one conversation, as text
  phasechat sessions search TEXT                        conversations whose messages hold TEXT
  phasechat sessions rename ID TITLE
  phasechat sessions rm ID
  phasechat sessions export ID [--format markdown|json]

ID may be any unique start of a session's id. Sessions are kept in
$XDG_DATA_HOME/phasechat/sessions (else ~/.local/share/phasechat/sessions).
`

func runSessions(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "--help" || args[0] == "-h" {
		out := stderr
		if len(args) > 0 {
			out = stdout
		}
		fmt.Fprint(out, sessionsUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, rest := args[0], args[1:]
	fs := flag.NewFlagSet("phasechat sessions "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), sessionsUsage) }
	asJSON := fs.Bool("json", false, "print the list as JSON")
	every := fs.Bool("all", false, "list one-shot runs (-p) too")
	format := fs.String("format", "markdown", "export as markdown or json")
	if err := parseInterleaved(fs, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	pos := fs.Args()
	want := map[string]int{"list": 0, "show": 1, "search": 1, "rename": 2, "rm": 1, "export": 1}
	n, known := want[cmd]
	switch {
	case !known:
		fmt.Fprintf(stderr, "phasechat sessions: unknown command %q\n%s", cmd, sessionsUsage)
		return 2
	case cmd == "rename" && len(pos) > 2:
		pos = []string{pos[0], strings.Join(pos[1:], " ")}
	case cmd == "search" && len(pos) > 1:
		pos = []string{strings.Join(pos, " ")}
	}
	if len(pos) != n {
		fmt.Fprintf(stderr, "phasechat sessions %s: expected %d argument(s), got %d\n%s", cmd, n, len(pos), sessionsUsage)
		return 2
	}
	if cmd == "export" && *format != "markdown" && *format != "json" {
		fmt.Fprintf(stderr, "phasechat sessions export: --format is markdown or json, not %q\n", *format)
		return 2
	}
	store, err := app.OpenStore()
	if err == nil {
		store.Notices = stderr
		err = sessionsCommand(store, cmd, pos, *asJSON, *every, *format, stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "phasechat:", safe.Text(err.Error()))
		return 1
	}
	return 0
}

func sessionsCommand(store *sessions.Store, cmd string, pos []string, asJSON, every bool, format string, stdout io.Writer) error {
	switch cmd {
	case "list":
		all, err := store.List()
		if err != nil {
			return err
		}
		oneShots := 0
		if !every {
			shown := sessions.Interactive(all)
			oneShots = len(all) - len(shown)
			all = shown
		}
		if asJSON {
			if all == nil {
				all = []sessions.Meta{}
			}
			return sessions.WriteJSON(stdout, all)
		}
		if len(all) == 0 && oneShots > 0 {
			_, err := fmt.Fprintf(stdout, "No saved conversations in %s, only %s (phasechat sessions list --all shows them).\n", safe.Line(store.Dir()), oneShotRuns(oneShots))
			return err
		}
		return sessions.WriteTable(stdout, all, store.Dir())
	case "search":
		hits, err := store.Search(pos[0])
		if err != nil {
			return err
		}
		if len(hits) == 0 {
			return fmt.Errorf("no session mentions %q", pos[0])
		}
		return sessions.WriteHits(stdout, hits)
	case "rename":
		m, err := store.Rename(pos[0], pos[1])
		if err == nil {
			fmt.Fprintf(stdout, "Renamed %s to %q.\n", m.ID, m.Title)
		}
		return err
	case "rm":
		m, err := store.Remove(pos[0])
		if err == nil {
			fmt.Fprintf(stdout, "Deleted %s (%s).\n", m.ID, safe.Line(m.Title))
		}
		return err
	}
	m, err := store.Find(pos[0])
	if err != nil {
		return err
	}
	r, err := store.Load(m)
	if err != nil {
		return err
	}
	if cmd == "export" && format == "json" {
		return sessions.JSON(stdout, m, r.Log)
	}
	return sessions.Markdown(stdout, m, r.Log)
}

// parseInterleaved parses flags that may come after positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			pos = append(pos, args[1:]...)
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// oneShotRuns is n one-shot runs in words: "1 one-shot run", "2 one-shot runs".
func oneShotRuns(n int) string {
	if n == 1 {
		return "1 one-shot run"
	}
	return fmt.Sprintf("%d one-shot runs", n)
}
