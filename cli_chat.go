package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"github.com/phasechat/phasechat/model/app"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/model/linemode"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/model/tui"
	"github.com/phasechat/phasechat/stream"
)

func chatFlagSet(f *app.Flags, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("phasechat", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&f.BaseURL, "base-url", "", "API root, e.g. http://127.0.0.1:8080/v1 (default: $OPENAI_BASE_URL, else OpenAI when $OPENAI_API_KEY is set, else the built-in demo)")
	fs.StringVar(&f.Model, "model", "", "model name, or PROVIDER/MODEL for a provider of the config file (default: the config's, else $OPENAI_MODEL, else "+app.OpenAIModel+"; \"demo\" on the built-in demo)")
	fs.StringVar(&f.Model, "m", "", "short for --model")
	fs.StringVar(&f.Provider, "provider", "", "a provider of the config file (default: the config's default)")
	fs.StringVar(&f.Config, "config", "", "the config file (default: $XDG_CONFIG_HOME/phasechat/config.toml, else ~/.config/phasechat/config.toml)")
	fs.StringVar(&f.Wire, "wire", "", "the API's wire format: chat (Chat Completions, the default), anthropic (Messages; $ANTHROPIC_API_KEY, "+app.AnthropicBaseURL+") or responses (OpenAI Responses)")
	fs.StringVar(&f.System, "system", "", "system prompt sent first with every request")
	fs.BoolVar(&f.NoStream, "no-stream", false, "ask for whole answers (stream: false) instead of streams")
	fs.DurationVar(&f.StallTimeout, "stall-timeout", stream.DefaultStallTimeout, "end a stream that sends nothing for this long (0: never)")
	fs.IntVar(&f.MaxSteps, "max-steps", chat.DefaultMaxSteps, "requests per turn before the tool loop stops and asks you to continue")
	fs.IntVar(&f.MaxReplyMiB, "max-reply", stream.DefaultMaxReply>>20, "MiB one reply may have; a longer one is stopped, keeping what arrived")
	fs.IntVar(&f.MaxTools, "max-tools", tools.DefaultMaxParallel(), "tools run at once; the others wait their turn")
	fs.BoolVar(&f.Yes, "yes", false, "run tools with side effects without asking")
	fs.BoolVar(&f.Accessible, "accessible", false, "line mode for screen readers: output is only appended (also ACCESSIBLE=1)")
	fs.BoolVar(&f.Inline, "inline", false, "run in the terminal's own screen: finished messages go to its scrollback and stay after quitting; no mouse capture")
	fs.StringVar(&f.LogPath, "log", "", "append every message and the usage to this file as JSON lines (mode 0600)")
	fs.StringVar(&f.Resume, "resume", "", "continue a saved conversation: a session `ID` (see phasechat sessions list) or a session log FILE")
	fs.BoolVar(&f.Continue, "continue", false, "continue the most recent saved conversation")
	fs.BoolVar(&f.NoSave, "no-save", false, "do not keep this conversation in the sessions folder")
	fs.StringVar(&f.Tools, "tools", "", "user-defined tools (TOML); default: tools.toml in the phasechat config directory")
	fs.StringVar(&f.MCP, "mcp", "", "MCP servers to start: a file of [mcp.NAME] tables (see the README)")
	fs.StringVar(&f.Theme, "theme", "auto", "the full-screen chat's colours: auto (follow the terminal's background), dark or light; NO_COLOR turns colour off")
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
	case f.MaxReplyMiB < 1:
		fmt.Fprintf(stderr, "phasechat: --max-reply must be at least 1 (MiB), got %d\n", f.MaxReplyMiB)
		return 2
	case f.MaxTools < 1:
		fmt.Fprintf(stderr, "phasechat: --max-tools must be at least 1 (how many tools run at once), got %d\n", f.MaxTools)
		return 2
	case f.MaxSteps < 1:
		fmt.Fprintf(stderr, "phasechat: --max-steps must be at least 1 (it counts the requests of one turn), got %d\n", f.MaxSteps)
		return 2
	case !slices.Contains(config.Themes, f.Theme):
		fmt.Fprintf(stderr, "phasechat: --theme must be one of %s, got %q\n", strings.Join(config.Themes, ", "), f.Theme)
		return 2
	case f.Continue && f.Resume != "":
		fmt.Fprintln(stderr, "phasechat: --continue and --resume both choose the conversation; give one of them")
		return 2
	case f.StallTimeout < 0:
		fmt.Fprintf(stderr, "phasechat: --stall-timeout cannot be negative (0 turns the watchdog off), got %s\n", f.StallTimeout)
		return 2
	}
	if _, err := stream.ParseWire(f.Wire); err != nil {
		fmt.Fprintln(stderr, "phasechat: --wire:", err)
		return 2
	}
	if oneShot {
		return runOneShot(f, fs, stdin, stdout, stderr)
	}
	if err := chatSession(f, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "phasechat:", err)
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
	s.CanAsk, pipeNote = inputTerminal(s.Accessible, term.IsTerminal(int(os.Stdin.Fd())), ttyAvailable)
	s.LiveOutput = !s.Accessible // the full-screen cards show a running tool's last lines
	sess, err := app.Open(s, stderr)
	if err != nil {
		return err
	}
	if s.Accessible {
		err = lineChat(sess, pipeNote, stdout)
	} else {
		err = screenChat(sess, pipeNote)
	}
	if cerr := sess.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if line := sess.Conversation.SavedLine(); line != "" {
		fmt.Fprintln(stdout, line)
	}
	return sess.Redact(err)
}

func lineChat(sess *app.Session, pipeNote string, stdout io.Writer) error {
	conv := sess.Conversation
	trouble := make(chan error, 64)
	conv.OnLogTrouble(func(err error) {
		select {
		case trouble <- err:
		default: // the session is busy with far worse; the error is returned at the end anyway
		}
	})
	opts := linemode.Options{
		LogTrouble: trouble,
		Chat:       sess.Chat, Performer: sess.Performer, Log: conv.Recorder(), Footer: sess.Footer,
		Notice: joinNotices(sess.Notice(), pipeNote), In: os.Stdin, Out: stdout, MCP: sess.MCP, Models: sess.Models,
		Clipboard: app.SystemClipboard(),
	}
	if conv.Saving() {
		opts.Conversations = conv
	}
	return linemode.Run(opts)
}

func screenChat(sess *app.Session, pipeNote string) error {
	s, conv := sess.Settings, sess.Conversation
	styles, stylesFor := s.Styles()
	// The first screen says what the demo is and what to try, so its notice is not needed.
	opts := tui.Options{Chat: sess.Chat, Performer: sess.Performer, Log: conv.Recorder(), Styles: styles, StylesFor: stylesFor,
		Measure: s.Measure, Footer: sess.Footer, Notice: joinNotices(conv.Notice(), pipeNote), Models: sess.Models, MCP: sess.MCP,
		Inline: s.Inline, Try: sess.Tries(), Clipboard: app.SystemClipboard()}
	if prompts, err := sessions.DefaultPrompts(); err == nil {
		opts.History, _ = prompts.Load() // with --no-save Up still recalls, and nothing is added
		if !s.NoSave {
			opts.Remember = prompts.Add
		}
	}
	if conv.Saving() {
		opts.Conversations = conv
	}
	sess.Performer.Frame = tui.FrameInterval
	prog := tea.NewProgram(tui.New(opts), tea.WithoutSignalHandler())
	conv.OnLogTrouble(func(err error) { prog.Send(tui.LogTroubleMsg{Err: err}) })
	stopSignals := relaySignals(prog)
	defer stopSignals()
	_, err := prog.Run()
	return err
}

// pipedNotice says what the full-screen chat did with text piped to it.
const pipedNotice = "Standard input is not a terminal: the piped text was not read (phasechat -p sends it as a prompt). " +
	"Keys and approvals come from this terminal."

// inputTerminal says whether a user can answer approvals, and what to tell them about piped
// input. The full-screen chat reads keys from the terminal itself (/dev/tty) when standard
// input is a pipe, so approvals follow that terminal; the line mode reads standard input.
func inputTerminal(accessible, stdinTerminal bool, tty func() bool) (canAsk bool, note string) {
	switch {
	case stdinTerminal:
		return true, ""
	case accessible || !tty():
		return false, ""
	}
	return true, pipedNotice
}

// ttyAvailable reports whether the controlling terminal can be opened.
func ttyAvailable() bool {
	f, err := os.Open("/dev/tty")
	if err != nil {
		return false
	}
	f.Close()
	return true
}

func joinNotices(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// relaySignals hands SIGHUP, SIGTERM and SIGINT to the program, which ends the turn as Ctrl+C
// does before it quits. The returned function stops the relay.
func relaySignals(prog *tea.Program) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-sigs:
				prog.Send(tui.SignalMsg{Signal: sig})
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
