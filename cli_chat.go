package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/ident"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/model/linemode"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/model/tui"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view"
	"github.com/phasechat/phasechat/view/safe"
)

const (
	openAIBaseURL    = "https://api.openai.com/v1"
	anthropicBaseURL = "https://api.anthropic.com/v1"
	anthropicModel   = "claude-sonnet-4-5"
)

type chatOptions struct {
	baseURL, model, system string
	config, provider       string
	wire                   string
	set                    map[string]bool // the flags given on the command line
	noStream               bool
	stallTimeout           time.Duration
	maxSteps               int
	maxTools               int
	maxReplyMiB            int
	measure                int // the config file's measure; 0 for the renderer's default
	yes, accessible        bool
	inline                 bool
	logPath, resume, tools string
	mcp                    string
	theme                  string // one of config.Themes
	showVersion, showHelp  bool
	noSave, continueLast   bool
	oneShot                oneShotOptions
}

func chatFlagSet(o *chatOptions, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("phasechat", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.baseURL, "base-url", "", "API root, e.g. http://127.0.0.1:8080/v1 (default: $OPENAI_BASE_URL, else OpenAI when $OPENAI_API_KEY is set, else the built-in demo)")
	fs.StringVar(&o.model, "model", "", "model name, or PROVIDER/MODEL for a provider of the config file (default: the config's, else $OPENAI_MODEL, else gpt-4o-mini; \"demo\" on the built-in demo)")
	fs.StringVar(&o.model, "m", "", "short for --model")
	fs.StringVar(&o.provider, "provider", "", "a provider of the config file (default: the config's default)")
	fs.StringVar(&o.config, "config", "", "the config file (default: $XDG_CONFIG_HOME/phasechat/config.toml, else ~/.config/phasechat/config.toml)")
	fs.StringVar(&o.wire, "wire", "", "the API's wire format: chat (Chat Completions, the default), anthropic (Messages; $ANTHROPIC_API_KEY, "+anthropicBaseURL+") or responses (OpenAI Responses)")
	fs.StringVar(&o.system, "system", "", "system prompt sent first with every request")
	fs.BoolVar(&o.noStream, "no-stream", false, "ask for whole answers (stream: false) instead of streams")
	fs.DurationVar(&o.stallTimeout, "stall-timeout", stream.DefaultStallTimeout, "end a stream that sends nothing for this long (0: never)")
	fs.IntVar(&o.maxSteps, "max-steps", chat.DefaultMaxSteps, "requests per turn before the tool loop stops and asks you to continue")
	fs.IntVar(&o.maxReplyMiB, "max-reply", stream.DefaultMaxReply>>20, "MiB one reply may have; a longer one is stopped, keeping what arrived")
	fs.IntVar(&o.maxTools, "max-tools", tools.DefaultMaxParallel(), "tools run at once; the others wait their turn")
	fs.BoolVar(&o.yes, "yes", false, "run tools with side effects without asking")
	fs.BoolVar(&o.accessible, "accessible", false, "line mode for screen readers: output is only appended (also ACCESSIBLE=1)")
	fs.BoolVar(&o.inline, "inline", false, "run in the terminal's own screen: finished messages go to its scrollback and stay after quitting; no mouse capture")
	fs.StringVar(&o.logPath, "log", "", "append every message and the usage to this file as JSON lines (mode 0600)")
	fs.StringVar(&o.resume, "resume", "", "continue a saved conversation: a session `ID` (see phasechat sessions list) or a session log FILE")
	fs.BoolVar(&o.continueLast, "continue", false, "continue the most recent saved conversation")
	fs.BoolVar(&o.noSave, "no-save", false, "do not keep this conversation in the sessions folder")
	fs.StringVar(&o.tools, "tools", "", "user-defined tools (TOML); default: tools.toml in the phasechat config directory")
	fs.StringVar(&o.mcp, "mcp", "", "MCP servers to start: a file of [mcp.NAME] tables (see the README)")
	fs.StringVar(&o.theme, "theme", "auto", "the full-screen chat's colours: auto (follow the terminal's background), dark or light; NO_COLOR turns colour off")
	oneShotFlags(fs, &o.oneShot)
	fs.BoolVar(&o.showVersion, "version", false, "print the version and exit")
	fs.BoolVar(&o.showHelp, "help", false, "print this help and exit")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

func runChat(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o chatOptions
	fs := chatFlagSet(&o, stderr)
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
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	switch {
	case o.showHelp:
		fs.SetOutput(stdout)
		fs.Usage()
		return 0
	case o.showVersion:
		fmt.Fprintln(stdout, "phasechat", version)
		return 0
	case fs.NArg() > 0 && !o.oneShot.print:
		fmt.Fprintf(stderr, "phasechat: unexpected argument %q (see phasechat --help)\n", fs.Arg(0))
		return 2
	case o.maxReplyMiB < 1:
		fmt.Fprintf(stderr, "phasechat: --max-reply must be at least 1 (MiB), got %d\n", o.maxReplyMiB)
		return 2
	case o.maxTools < 1:
		fmt.Fprintf(stderr, "phasechat: --max-tools must be at least 1 (how many tools run at once), got %d\n", o.maxTools)
		return 2
	case o.maxSteps < 1:
		fmt.Fprintf(stderr, "phasechat: --max-steps must be at least 1 (it counts the requests of one turn), got %d\n", o.maxSteps)
		return 2
	case !slices.Contains(config.Themes, o.theme):
		fmt.Fprintf(stderr, "phasechat: --theme must be one of %s, got %q\n", strings.Join(config.Themes, ", "), o.theme)
		return 2
	case o.continueLast && o.resume != "":
		fmt.Fprintln(stderr, "phasechat: --continue and --resume both choose the conversation; give one of them")
		return 2
	case o.stallTimeout < 0:
		fmt.Fprintf(stderr, "phasechat: --stall-timeout cannot be negative (0 turns the watchdog off), got %s\n", o.stallTimeout)
		return 2
	}
	if _, err := wire.ParseWire(o.wire); err != nil {
		fmt.Fprintln(stderr, "phasechat: --wire:", err)
		return 2
	}
	if o.oneShot.print {
		return runOneShot(o, fs.Args(), stdin, stdout, stderr)
	}
	if err := chatSession(o, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "phasechat:", err)
		return exitFor(err)
	}
	return 0
}

// usageError is a mistake on the command line found only once it is acted on (a config file
// that is not there, a session id that names no session or several): exit code 2.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// exitFor is the exit code of a session that failed with err: 2 for a usage mistake, else 1.
func exitFor(err error) int {
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// endpoint resolves where to send requests (docs/architecture.md, Command line); demo is true for the built-in demo.
type endpoint struct {
	baseURL, apiKey, model string
	wire                   wire.Wire
	demo                   bool
	stop                   func()
}

func resolveEndpoint(o chatOptions) (endpoint, error) {
	format, err := wire.ParseWire(o.wire)
	if err != nil {
		return endpoint{stop: func() {}}, err
	}
	ep := endpoint{baseURL: o.baseURL, apiKey: os.Getenv("OPENAI_API_KEY"), model: o.model, wire: format, stop: func() {}}
	envBase, defaultBase, envModel, defaultModel := "OPENAI_BASE_URL", openAIBaseURL, "OPENAI_MODEL", "gpt-4o-mini"
	if format == wire.WireAnthropic {
		ep.apiKey = os.Getenv("ANTHROPIC_API_KEY")
		envBase, defaultBase, envModel, defaultModel = "ANTHROPIC_BASE_URL", anthropicBaseURL, "ANTHROPIC_MODEL", anthropicModel
	}
	if ep.baseURL == "" {
		ep.baseURL = os.Getenv(envBase)
	}
	if ep.baseURL == "" && ep.apiKey != "" {
		ep.baseURL = defaultBase
	}
	if ep.baseURL == "" {
		base, stop, err := fixtures.StartDemo(fixtures.Options{Pace: 1})
		if err != nil {
			return ep, err
		}
		ep.baseURL, ep.stop, ep.demo = base, stop, true
		if ep.model == "" {
			ep.model = fixtures.DemoModel
		}
	}
	if _, ok := ident.WebURL(ep.baseURL); !ok {
		return ep, fmt.Errorf("the base URL %q is not an http(s) URL like http://127.0.0.1:8080/v1", ep.baseURL)
	}
	if ep.model == "" {
		ep.model = os.Getenv(envModel)
	}
	if ep.model == "" {
		ep.model = defaultModel
	}
	return ep, nil
}

func loadTools(path string, stderr io.Writer) (*tools.Registry, error) {
	reg, err := tools.NewRegistry("")
	if err != nil {
		return nil, err
	}
	reg.Clean = safe.Text
	explicit := path != ""
	if !explicit {
		var notice string
		if path, notice, err = config.ToolsPath(os.Getenv, os.UserConfigDir); err != nil {
			return reg, nil
		}
		if notice != "" {
			fmt.Fprintln(stderr, "phasechat:", notice)
		}
	}
	user, err := tools.LoadFile(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return reg, nil
		}
		return nil, err
	}
	return reg, reg.Add(user...)
}

func chatSession(o chatOptions, stdout, stderr io.Writer) (err error) {
	target, err := chooseTarget(&o, stderr)
	if err != nil {
		return envSecrets().Error(err)
	}
	ep, client, provs, provider := target.ep, target.client, target.provs, target.provider
	defer ep.stop()
	secrets := target.secrets
	defer func() { err = secrets.Error(err) }()
	reg, err := loadTools(o.tools, stderr)
	if err != nil {
		return err
	}
	reg.Secrets = secrets
	reg.MaxParallel = o.maxTools
	if provs != nil {
		reg.HiddenEnv = provs.keyVariables()
	}
	servers, err := sessionMCP(o.mcp, target.file, reg)
	if err != nil {
		return err
	}
	if servers != nil {
		defer servers.Close() // after the front end returns: no server process outlives the chat
	}
	conv, err := openConversation(o.sessionFlags(), sessionlog.Header{Model: target.modelLabel(), Endpoint: endpointLabel(ep.baseURL), System: o.system}, hostOf(ep.baseURL))
	if err != nil {
		return err
	}
	conv.secrets = secrets
	history, notice := conv.history, withDemoNotice(ep.demo, conv.notice)
	accessible := o.accessible || os.Getenv("ACCESSIBLE") == "1"
	interactive, pipeNote := inputTerminal(accessible, term.IsTerminal(int(os.Stdin.Fd())), ttyAvailable)
	notice = joinNotices(notice, pipeNote)
	engine := chat.New(chat.Config{
		Provider: provider, Model: ep.model, System: o.system, MaxSteps: o.maxSteps, NoStream: o.noStream,
		Tools: perform.Toolbox(reg), AutoApprove: o.yes, CanAsk: interactive, MaxTools: o.maxTools,
		LiveOutput: !accessible, // the full-screen cards show a running tool's last lines
	}, history)
	performer := &perform.Performer{Client: client, Tools: reg}
	footer := view.Footer{Endpoint: endpointLabel(ep.baseURL), Model: ep.model, Demo: ep.demo, Wire: client.Wire.Label()}
	var models tui.ModelLister
	if provs != nil {
		performer.Route = provs.client
		footer.Model = provider + "/" + ep.model
		models = provs.models
	}
	noColor := safe.NoColor(os.LookupEnv)
	var runErr error
	if accessible {
		trouble := make(chan error, 64)
		conv.onLogTrouble(func(err error) {
			select {
			case trouble <- err:
			default: // the session is busy with far worse; the error is returned at the end anyway
			}
		})
		runErr = linemode.Run(linemode.Options{
			LogTrouble: trouble,
			Chat:       engine, Performer: performer, Log: conv.recorder(), Footer: footer, Notice: notice,
			In: os.Stdin, Out: stdout, MCP: servers, Models: models,
			Clipboard: systemClipboard(), Conversations: conv.lineConversations(),
		})
	} else {
		styles, stylesFor := screenStyles(o.theme, noColor, dumbTerminal(os.LookupEnv))
		// The first screen says what the demo is and what to try, so its notice is not needed.
		opts := tui.Options{Chat: engine, Performer: performer, Log: conv.recorder(), Styles: styles, StylesFor: stylesFor, Measure: o.measure, Footer: footer,
			Notice: joinNotices(conv.notice, pipeNote), Models: models, MCP: servers, Inline: o.inline}
		if ep.demo {
			opts.Try = demoTries()
		}
		conv.everydayOptions(&opts, o.noSave)
		performer.Frame = tui.FrameInterval
		m := tui.New(opts)
		prog := tea.NewProgram(m, tea.WithoutSignalHandler())
		conv.onLogTrouble(func(err error) { prog.Send(tui.LogTroubleMsg{Err: err}) })
		stopSignals := relaySignals(prog)
		_, runErr = prog.Run()
		stopSignals()
		reg.Wait() // the tools the turn's end stopped are gone before we are
	}
	if err := conv.close(); err != nil && runErr == nil {
		runErr = err
	}
	if line := conv.savedLine(); line != "" {
		fmt.Fprintln(stdout, line)
	}
	return runErr
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

// demoNotice is said at the start of a session on the built-in demo.
const demoNotice = "This is the built-in demo: no API key or endpoint is set, so a scripted model answers. " +
	"Export OPENAI_API_KEY, or pass --base-url, to talk to a real model."

// demoTries are the demo's prompts for the first screen.
func demoTries() []view.Try {
	tries := make([]view.Try, 0, len(fixtures.DemoTries))
	for _, t := range fixtures.DemoTries {
		tries = append(tries, view.Try{Prompt: t.Prompt, Shows: t.Shows})
	}
	return tries
}

// withDemoNotice puts demoNotice before notice when the session is on the built-in demo.
func withDemoNotice(demo bool, notice string) string {
	switch {
	case !demo:
		return notice
	case notice == "":
		return demoNotice
	}
	return demoNotice + "\n" + notice
}

// configPlace names the config file the session reads.
func configPlace(o chatOptions) string {
	if o.config != "" {
		return o.config
	}
	if p, err := config.DefaultPath(os.Getenv); err == nil {
		return p + " does not exist or defines no provider"
	}
	return "no config directory"
}

func (o chatOptions) sessionFlags() sessionFlags {
	return sessionFlags{noSave: o.noSave, continueAll: o.continueLast, resume: o.resume, logPath: o.logPath}
}

// hostOf is the host of an API root, as the sessions list names the provider.
func hostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return u.Host
}

// endpointLabel is the endpoint as the footer shows it: scheme, host and path, never a key.
func endpointLabel(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return "?"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
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

// maxReply is the most one reply may have, in bytes, for every client the session makes.
func (o chatOptions) maxReply() int64 { return int64(o.maxReplyMiB) << 20 }
