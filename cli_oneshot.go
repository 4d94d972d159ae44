package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/phasechat/phasechat/model/app"
	"github.com/phasechat/phasechat/model/oneshot"
	"github.com/phasechat/phasechat/view/safe"
)

// oneShotOnly are the flags that mean something only with -p, as the help writes them.
var oneShotOnly = []string{"-q", "--format", "--raw", "-a"}

// attachFlag is -a: each file to attach, in the order given; "-" is standard input.
type attachFlag []string

func (a *attachFlag) String() string { return strings.Join(*a, " ") }
func (a *attachFlag) Set(v string) error {
	*a = append(*a, v)
	return nil
}

func oneShotFlags(fs *flag.FlagSet) {
	print := fs.Bool("p", false, "one-shot: send the prompt given as the arguments (or read from standard input), print the reply, exit (exit codes: One-shot mode, above)")
	fs.BoolVar(print, "print", false, "same as -p")
	fs.Bool("q", false, "one-shot: no status or tool notices on standard error (errors still)")
	fs.Bool("raw", false, "one-shot: write the reply's bytes as they came, terminal controls too (by default a file or pipe gets the text without them, a terminal the screen's rules)")
	fs.Var(new(attachFlag), "a", "one-shot: attach `FILE` after the prompt (repeatable; - is standard input): text, a PNG, JPEG, GIF or WebP image, or a PDF")
	fs.String("format", "text", "one-shot output: text (the reply as it streams), json (one object at the end) or jsonl (one event per line)")
}

// runOneShot sends one prompt and prints the reply; the exit code says how the turn ended.
func runOneShot(f app.Flags, fs *flag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) int {
	format := oneshot.Format(fs.Lookup("format").Value.String())
	if format != oneshot.FormatText && format != oneshot.FormatJSON && format != oneshot.FormatJSONL {
		fmt.Fprintf(stderr, "phasechat: --format is text, json or jsonl, not %q\n", format)
		return oneshot.ExitUsage
	}
	files := *fs.Lookup("a").Value.(*attachFlag)
	context := stdin
	if slices.Contains(files, "-") {
		context = nil // standard input is a file, not the prompt's context
	}
	prompt, message, err := oneshot.Prompt(fs.Args(), context, stderr, len(files) > 0)
	if err != nil {
		fmt.Fprintln(stderr, "phasechat:", err)
		return oneshot.ExitUsage
	}
	attached, err := app.ReadAttachments(files, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "phasechat:", safe.Text(err.Error()))
		return oneshot.ExitUsage
	}
	code, err := oneShot(f, prompt, message, attached, format, flagOn(fs, "q"), textRule(flagOn(fs, "raw"), stdout), stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "phasechat:", safe.Text(err.Error()))
		if exitFor(err) == oneshot.ExitUsage {
			code = oneshot.ExitUsage
		}
	}
	return code
}

// sameTerminal reports whether a and b are one terminal (stdout and stderr on the same screen).
func sameTerminal(a, b io.Writer) bool {
	fa, ok := a.(*os.File)
	fb, okb := b.(*os.File)
	if !ok || !okb || !term.IsTerminal(int(fa.Fd())) || !term.IsTerminal(int(fb.Fd())) {
		return false
	}
	ia, err := fa.Stat()
	ib, errb := fb.Stat()
	return err == nil && errb == nil && os.SameFile(ia, ib)
}

// textRule is how the reply is cleaned for stdout: the screen's rules on a terminal, the
// text without terminal controls in a file or pipe, the bytes as they came with --raw.
func textRule(raw bool, stdout io.Writer) oneshot.TextRule {
	switch f, ok := stdout.(*os.File); {
	case raw:
		return oneshot.TextRaw
	case ok && term.IsTerminal(int(f.Fd())):
		return oneshot.TextScreen
	}
	return oneshot.TextPlain
}

// oneShot sends message (the prompt, after its context) in a session titled prompt.
func oneShot(f app.Flags, prompt, message string, attached app.Attached, format oneshot.Format, quiet bool, text oneshot.TextRule, stdout, stderr io.Writer) (int, error) {
	s, err := app.Load(f, os.LookupEnv, stderr)
	if err != nil {
		return oneshot.ExitFailed, app.EnvSecrets().Error(err)
	}
	if err := s.Configured(); err != nil {
		return oneshot.ExitUsage, err // a script never gets the demo's scripted answers unless it asks
	}
	s.Title, s.OneShot, s.StoreNotices = attached.Title(prompt), true, stderr
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	// A reader that closes standard output (| head) makes a write fail, which ends the turn
	// and keeps the partial reply, instead of SIGPIPE ending the process.
	closed := make(chan os.Signal, 1)
	signal.Notify(closed, syscall.SIGPIPE)
	defer signal.Stop(closed)
	sess, err := app.Open(s, stderr)
	if err != nil {
		return oneshot.ExitFailed, err
	}
	files, fileNotes, err := attached.WithoutSecrets(sess.Secrets).Files(sess.Settings.Wire)
	if err != nil {
		sess.Close()
		return oneshot.ExitUsage, err
	}
	notices, settled := sess.SettleMCP(sigs)
	if !settled {
		sess.Close()
		return oneshot.ExitInterrupted, nil
	}
	for _, n := range notices {
		fmt.Fprintln(stderr, "phasechat:", safe.Text(n))
	}
	conv := sess.Conversation
	opts := oneshot.Options{
		Chat: sess.Chat, Performer: sess.Performer, Log: conv.Recorder(),
		Prompt: message, Attachments: files, Format: format, Out: stdout, ErrAlways: stderr,
		Interrupt: sigs, Session: conv.Session(), Text: text,
		SharedTerminal: sameTerminal(stdout, stderr),
	}
	if !quiet {
		opts.Err = stderr
		if n := conv.Notice(); n != "" {
			fmt.Fprintln(stderr, "phasechat:", safe.Line(n))
		}
		for _, n := range fileNotes {
			fmt.Fprintln(stderr, "phasechat:", safe.Line(n))
		}
	}
	res := oneshot.Run(opts)
	if err := sess.Close(); err != nil {
		if res.ExitCode == oneshot.ExitComplete {
			res.ExitCode = oneshot.ExitFailed
		}
		return res.ExitCode, fmt.Errorf("the reply was not saved: %w", err)
	}
	if id := conv.SavedID(); id != "" && !quiet {
		fmt.Fprintf(stderr, "phasechat: saved as session %s (phasechat --resume %s continues it)\n", id, id)
	}
	return res.ExitCode, nil
}
