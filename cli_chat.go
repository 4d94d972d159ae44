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
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/linemode"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/model/tui"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/view/safe"
)

func chatFlagSet(f *app.Flags, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("phasechat", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&f.BaseURL, "base-url", "", "API root, e.g. http://127.0.0.1:8080/v1, or demo for the built-in demo (default: $OPENAI_BASE_URL, else OpenAI when $OPENAI_API_KEY is set, else the built-in demo; -p never falls back to it)")
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
	fs.BoolVar(&f.Fork, "fork", false, "with --continue or --resume ID: continue the conversation in a copy, a new session that records its parent (for one open in another phasechat)")
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
