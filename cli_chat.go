package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/linemode"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessionlog"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/model/tui"
	"github.com/phasechat/phasechat/phase/secret"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/view"
	"github.com/phasechat/phasechat/view/safe"
)

const openAIBaseURL = "https://api.openai.com/v1"

type chatOptions struct {
	baseURL, model, system string
	noStream               bool
	stallTimeout           time.Duration
	maxSteps               int
	yes, accessible        bool
	logPath, resume, tools string
	showVersion, showHelp  bool
	noSave, continueLast   bool
}

func chatFlagSet(o *chatOptions, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("phasechat", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.baseURL, "base-url", "", "API root, e.g. http://127.0.0.1:8080/v1 (default: $OPENAI_BASE_URL, else OpenAI when $OPENAI_API_KEY is set, else the built-in demo)")
	fs.StringVar(&o.model, "model", "", "model name (default: $OPENAI_MODEL, else gpt-4o-mini; \"demo\" on the built-in demo)")
	fs.StringVar(&o.system, "system", "", "system prompt sent first with every request")
	fs.BoolVar(&o.noStream, "no-stream", false, "ask for whole answers (stream: false) instead of streams")
	fs.DurationVar(&o.stallTimeout, "stall-timeout", stream.DefaultStallTimeout, "end a stream that sends nothing for this long (0: never)")
	fs.IntVar(&o.maxSteps, "max-steps", chat.DefaultMaxSteps, "requests per turn before the tool loop stops and asks you to continue")
	fs.BoolVar(&o.yes, "yes", false, "run tools with side effects without asking")
	fs.BoolVar(&o.accessible, "accessible", false, "line mode for screen readers: output is only appended (also ACCESSIBLE=1)")
	fs.StringVar(&o.logPath, "log", "", "append every message and the usage to this file as JSON lines (mode 0600)")
	fs.StringVar(&o.resume, "resume", "", "continue a saved conversation: a session `ID` (see phasechat sessions list) or a session log FILE")
	fs.BoolVar(&o.continueLast, "continue", false, "continue the most recent saved conversation")
	fs.BoolVar(&o.noSave, "no-save", false, "do not keep this conversation in the sessions folder")
	fs.StringVar(&o.tools, "tools", "", "user-defined tools (TOML); default: tools.toml in the phasechat config directory")
	fs.BoolVar(&o.showVersion, "version", false, "print the version and exit")
	fs.BoolVar(&o.showHelp, "help", false, "print this help and exit")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

func runChat(args []string, stdout, stderr io.Writer) int {
	var o chatOptions
	fs := chatFlagSet(&o, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	switch {
	case o.showHelp:
		fs.SetOutput(stdout)
		fs.Usage()
		return 0
	case o.showVersion:
		fmt.Fprintln(stdout, "phasechat", version)
		return 0
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "phasechat: unexpected argument %q (see phasechat --help)\n", fs.Arg(0))
		return 2
	case o.maxSteps < 1:
		fmt.Fprintf(stderr, "phasechat: --max-steps must be at least 1 (it counts the requests of one turn), got %d\n", o.maxSteps)
		return 2
	case o.continueLast && o.resume != "":
		fmt.Fprintln(stderr, "phasechat: --continue and --resume both choose the conversation; give one of them")
		return 2
	case o.stallTimeout < 0:
		fmt.Fprintf(stderr, "phasechat: --stall-timeout cannot be negative (0 turns the watchdog off), got %s\n", o.stallTimeout)
		return 2
	}
	if err := chatSession(o, stdout); err != nil {
		fmt.Fprintln(stderr, "phasechat:", err)
		return 1
	}
	return 0
}

// endpoint resolves where to send requests (DESIGN §9); demo is true for the built-in demo.
type endpoint struct {
	baseURL, apiKey, model string
	demo                   bool
	stop                   func()
}

func resolveEndpoint(o chatOptions) (endpoint, error) {
	ep := endpoint{baseURL: o.baseURL, apiKey: os.Getenv("OPENAI_API_KEY"), model: o.model, stop: func() {}}
	if ep.baseURL == "" {
		ep.baseURL = os.Getenv("OPENAI_BASE_URL")
	}
	if ep.baseURL == "" && ep.apiKey != "" {
		ep.baseURL = openAIBaseURL
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
	if u, err := url.Parse(ep.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ep, fmt.Errorf("the base URL %q is not an http(s) URL like http://127.0.0.1:8080/v1", ep.baseURL)
	}
	if ep.model == "" {
		ep.model = os.Getenv("OPENAI_MODEL")
	}
	if ep.model == "" {
		ep.model = "gpt-4o-mini"
	}
	return ep, nil
}

func loadTools(path string) (*tools.Registry, error) {
	reg, err := tools.NewRegistry("")
	if err != nil {
		return nil, err
	}
	reg.Clean = safe.Text
	explicit := path != ""
	if !explicit {
		if path, err = tools.DefaultConfigPath(); err != nil {
			return reg, nil
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

// runSecrets is every secret of this run: the key and the credentials of the endpoint (and of
// $OPENAI_BASE_URL, which tools would otherwise inherit). Everything that leaves the process
// hides them: the client's replies and errors, tools' input, output and environment, the logs.
func runSecrets(ep endpoint) *secret.Set {
	set := secret.New(ep.apiKey)
	set.AddURL(ep.baseURL)
	set.AddURL(os.Getenv("OPENAI_BASE_URL"))
	return set
}

func chatSession(o chatOptions, stdout io.Writer) (err error) {
	ep, err := resolveEndpoint(o)
	if err != nil {
		return err
	}
	defer ep.stop()
	secrets := runSecrets(ep)
	defer func() { err = secrets.Error(err) }()
	reg, err := loadTools(o.tools)
	if err != nil {
		return err
	}
	reg.Secrets = secrets
	conv, err := openConversation(o.sessionFlags(), sessionlog.Header{Model: ep.model, Endpoint: endpointLabel(ep.baseURL), System: o.system}, hostOf(ep.baseURL))
	if err != nil {
		return err
	}
	history, notice := conv.history, conv.notice
	conv.secrets = secrets
	client := stream.NewClient(ep.baseURL, ep.apiKey)
	client.Secrets = secrets
	client.StallTimeout = o.stallTimeout
	interactive := term.IsTerminal(int(os.Stdin.Fd()))
	engine := chat.New(chat.Config{
		Model: ep.model, System: o.system, MaxSteps: o.maxSteps, NoStream: o.noStream,
		Tools: perform.Toolbox(reg), AutoApprove: o.yes, CanAsk: interactive,
	}, history)
	performer := &perform.Performer{Client: client, Tools: reg}
	footer := view.Footer{Endpoint: endpointLabel(ep.baseURL), Model: ep.model, Demo: ep.demo}
	accessible := o.accessible || os.Getenv("ACCESSIBLE") == "1"
	noColor := safe.NoColor(os.LookupEnv)
	var runErr error
	if accessible {
		runErr = linemode.Run(linemode.Options{
			Chat: engine, Performer: performer, Log: conv.recorder(), Footer: footer, Notice: notice,
			In: os.Stdin, Out: stdout,
		})
	} else {
		styles := view.DefaultStyles()
		if noColor {
			styles = view.PlainStyles()
		}
		m := tui.New(tui.Options{Chat: engine, Performer: performer, Log: conv.recorder(), Styles: styles, Footer: footer, Notice: notice})
		_, runErr = tea.NewProgram(m).Run()
	}
	if err := conv.close(); err != nil && runErr == nil {
		runErr = err
	}
	if line := conv.savedLine(); line != "" {
		fmt.Fprintln(stdout, line)
	}
	return runErr
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
