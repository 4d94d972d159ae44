package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/phasechat/phasechat/model/app"
	"github.com/phasechat/phasechat/model/linemode"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/tui"
	"github.com/phasechat/phasechat/view/safe"
)

func chatFlagSet(f *app.Flags, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("phasechat", flag.ContinueOnError)
	fs.SetOutput(out)
	f.Define(fs)
	oneShotFlags(fs)
	fs.Bool("version", false, "print the version and exit")
	fs.Bool("help", false, "print this help and exit")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

// flagOn is the value of fs's boolean flag name.
func flagOn(fs *flag.FlagSet, name string) bool { return fs.Lookup(name).Value.String() == "true" }

func runChat(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f app.Flags
	fs := chatFlagSet(&f, stderr)
	full := fs.Usage
	fs.Usage = func() {} // a mistake gets the flag package's one line and a hint, not the whole help
	if err := parseInterleaved(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			full()
			return 0
		}
		fmt.Fprintln(stderr, "phasechat: run phasechat --help for the flags")
		return 2
	}
	fs.Usage = full
	f.Given = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.Given[fl.Name] = true })
	oneShot := flagOn(fs, "p")
	switch {
	case flagOn(fs, "help"):
		fs.SetOutput(stdout)
		fs.Usage()
		return 0
	case flagOn(fs, "version"):
		fmt.Fprintln(stdout, "phasechat", version)
		return 0
	case fs.NArg() > 0 && !oneShot:
		fmt.Fprintf(stderr, "phasechat: unexpected argument %q (see phasechat --help)\n", fs.Arg(0))
		return 2
	}
	for _, name := range oneShotOnly {
		if f.Given[strings.TrimLeft(name, "-")] && !oneShot {
			fmt.Fprintf(stderr, "phasechat: %s is for one-shot mode: add -p \"question\" (without -p phasechat starts the interactive chat)\n", name)
			return 2
		}
	}
	if err := f.Check(); err != nil {
		fmt.Fprintln(stderr, "phasechat:", err)
		return 2
	}
	if oneShot {
		return runOneShot(f, fs, stdin, stdout, stderr)
	}
	if err := chatSession(f, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "phasechat:", safe.Text(err.Error()))
		return exitFor(err)
	}
	return 0
}

// exitFor is the exit code of a session that failed with err: 2 for a usage mistake, else 1.
func exitFor(err error) int {
	var u app.UsageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// chatSession runs the interactive chat: the line mode with --accessible, else the full
// screen.
func chatSession(f app.Flags, stdout, stderr io.Writer) error {
	s, err := app.Load(f, os.LookupEnv, stderr)
	if err != nil {
		return app.EnvSecrets().Error(err)
	}
	var pipeNote string
	s.CanAsk, pipeNote = app.InputTerminal(s.Accessible, term.IsTerminal(int(os.Stdin.Fd())), app.TTYAvailable)
	s.LiveOutput = !s.Accessible // the full-screen cards show a running tool's last lines
	if s.Accessible {
		s.StoreNotices = stderr // the full screen owns the terminal: there the store says nothing
	}
	if term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stderr.Fd())) {
		s.OnHeld = func(e *sessions.HeldError) sessions.HeldChoice { return sessions.AskHeld(os.Stdin, os.Stderr, e) }
	}
	sess, err := app.Open(s, stderr)
	if err != nil {
		return err
	}
	if s.Accessible {
		err = linemode.Run(sess.LineOptions(os.Stdin, stdout, pipeNote))
	} else {
		err = tui.Run(sess.ScreenOptions(pipeNote), sess.LogTrouble())
	}
	if cerr := sess.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if line := sess.Conversation.SavedLine(); line != "" {
		fmt.Fprintln(stdout, safe.Line(line))
	}
	return sess.Redact(err)
}
