package app

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/ident"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

// The endpoints and models used when the environment names a key but no endpoint.
const (
	OpenAIBaseURL    = "https://api.openai.com/v1"
	OpenAIModel      = "gpt-4o-mini"
	AnthropicBaseURL = "https://api.anthropic.com/v1"
	AnthropicModel   = "claude-sonnet-4-5"
	DemoBaseURL      = "demo" // --base-url demo: the built-in demo
)

// Flags are the command line's values, by setting, and which flags were given. A value whose
// flag was not given is not read: the config file, the environment and the defaults decide.
type Flags struct {
	BaseURL, Model, Provider, Wire string
	Config                         string // the config file; "" for the default place
	System                         string
	NoStream                       bool
	StallTimeout                   time.Duration
	MaxSteps, MaxTools             int
	MaxReplyMiB                    int
	Yes, Accessible, Inline        bool
	Theme                          string
	LogPath, Resume, Tools, MCP    string
	NoSave, Continue, Fork         bool

	Given map[string]bool // the flags given, by name ("m" for -m)
}

func (f Flags) given(names ...string) bool {
	for _, n := range names {
		if f.Given[n] {
			return true
		}
	}
	return false
}

// Sources are everything a setting may come from.
type Sources struct {
	Flags Flags
	File  *config.File // the config file; nil when there is none
	Env   Lookup
	// Saved is the provider/model a conversation continued from the store was saved with;
	// "" when none is continued.
	Saved string
}

// Settings are a session's settings, each resolved once from its Sources: a flag given beats
// the config file, which beats the environment, which beats the default.
type Settings struct {
	// Demo is set when nothing names an endpoint, or --base-url demo does: Open starts the
	// built-in demo, and its base URL is then BaseURL.
	Demo bool
	// DemoAsked is set when the command line named the demo (--base-url demo, or -m demo
	// with nothing else configured) rather than falling back to it.
	DemoAsked bool
	BaseURL   string
	Wire      wire.Wire
	Provider  string // the config file's provider requests go to; "" when the file has none
	Model     string // "" when the provider names none: Open asks its server
	// Unmatched is the PROVIDER of -m PROVIDER/MODEL when the file defines no such provider
	// (the whole name went to Provider as a model); "" otherwise.
	Unmatched string
	Key       KeySource

	File     *config.File // nil: no config file
	NoStream bool
	System   string
	// StallTimeout ends a stream that sends nothing for this long; 0 never does.
	StallTimeout time.Duration
	MaxSteps     int
	MaxTools     int
	MaxReply     int64 // bytes one reply may have
	Yes          bool  // side-effecting tools run without asking

	Theme   string // one of config.Themes
	NoColor bool   // NO_COLOR is set
	Dumb    bool   // TERM interprets no styling
	Inline  bool
	Measure int // the width replies are drawn at; 0 for the renderer's default
	// served is what the providers' model lists said of their models' windows and prices.
	served *servedBudgets
	// CompactAt is the context fill (0 to 1) past which a turn's end compacts; 0 never.
	CompactAt  float64
	Accessible bool

	NoSave   bool
	Continue bool   // the latest saved conversation goes on
	Fork     bool   // the conversation continued from the store goes on in a copy, a new session
	Resume   string // a session id or a session log file that goes on
	LogPath  string // --log: every message appended here too
	Tools    string // the user tools file; "" for the default place
	MCP      string // a file of [mcp.NAME] tables; "" for the config file's

	// Set by the front end before Open.
	Title      string // a new session's title; "" for its first prompt's words
	OneShot    bool   // a one-shot run (-p): its session is marked so, or not kept with save_oneshot = false
	CanAsk     bool   // a user answers approvals
	LiveOutput bool   // a running tool's output is shown as it prints
	// StoreNotices is where the sessions store says what the user should know as it happens
	// (a wait for the index's lock held by another process); nil says nothing.
	StoreNotices io.Writer
	// OnHeld chooses what to do when the conversation to continue is open in another process;
	// nil refuses it (the error names the holder).
	OnHeld func(*sessions.HeldError) sessions.HeldChoice

	Env Lookup // the environment Open reads keys from
}

// Resolve decides every setting from its sources. Its errors are the user's to fix (a
// UsageError for the command line's).
func Resolve(src Sources) (Settings, error) {
	f, file, env := src.Flags, src.File, src.Env
	if env == nil {
		env = func(string) (string, bool) { return "", false }
	}
	getenv := func(k string) string { v, _ := env(k); return v }
	s := Settings{
		File: file, Env: env,
		NoStream: f.NoStream, Yes: f.Yes, MaxTools: f.MaxTools,
		Continue: f.Continue, Fork: f.Fork, Resume: f.Resume, LogPath: f.LogPath, Tools: f.Tools, MCP: f.MCP,
		StallTimeout: stream.DefaultStallTimeout, MaxSteps: chat.DefaultMaxSteps, MaxReply: stream.DefaultMaxReply,
		Theme:      "auto",
		NoColor:    safe.NoColor(env),
		Dumb:       dumbTerminal(env),
		Accessible: f.Accessible || getenv("ACCESSIBLE") == "1",
	}
	if !f.given("max-tools") {
		s.MaxTools = tools.DefaultMaxParallel()
	}
	if file != nil {
		s.System = file.System
		if file.StallTimeout != nil {
			s.StallTimeout = file.StallTimeout.Duration
		}
		if file.MaxSteps > 0 {
			s.MaxSteps = file.MaxSteps
		}
		if file.MaxReply > 0 {
			s.MaxReply = int64(file.MaxReply) << 20
		}
		if file.Theme != "" {
			s.Theme = file.Theme
		}
		if file.Inline != nil {
			s.Inline = *file.Inline
		}
		s.Measure = file.Measure
		s.CompactAt = file.CompactAt
		s.NoSave = file.Save != nil && !*file.Save
	}
	if f.given("system") {
		s.System = f.System
	}
	if f.given("stall-timeout") {
		s.StallTimeout = f.StallTimeout
	}
	if f.given("max-steps") {
		s.MaxSteps = f.MaxSteps
	}
	if f.given("max-reply") {
		s.MaxReply = int64(f.MaxReplyMiB) << 20
	}
	if f.given("theme") {
		s.Theme = f.Theme
	}
	if f.given("inline") {
		s.Inline = f.Inline
	}
	if f.given("no-save") {
		s.NoSave = f.NoSave
	}
	var err error
	if usesProviders(f, file) {
		err = s.chooseProvider(f, src.Saved)
	} else {
		err = s.chooseEndpoint(f, getenv)
	}
	return s, err
}

// usesProviders reports whether the endpoint comes from the file's providers: the file
// defines some, and --base-url alone does not name an endpoint of its own.
func usesProviders(f Flags, file *config.File) bool {
	return file != nil && len(file.Order) > 0 && (f.Provider != "" || !f.given("base-url"))
}

// chooseProvider picks the file's provider and model: --provider and --model, else the
// provider/model a continued conversation was saved with (while the file still defines that
// provider), else the file's default. --base-url and --wire replace the chosen provider's
// base_url and type.
func (s *Settings) chooseProvider(f Flags, saved string) error {
	model := f.Model
	if !f.given("model", "m", "provider") && saved != "" {
		if provider, _, ok := strings.Cut(saved, "/"); ok && s.File.Providers[provider] != nil {
			model = saved
		}
	}
	choice, err := s.File.Choose(f.Provider, model)
	if err != nil && f.Provider != "" {
		return UsageError{err} // --provider names none of the file's
	}
	if err != nil {
		return err
	}
	p := s.File.Providers[choice.Provider]
	s.Provider, s.Model, s.BaseURL, s.Unmatched = choice.Provider, choice.Model, p.BaseURL, choice.Unmatched
	s.Key = keySource(p, p == s.File.DefaultProvider())
	s.Wire, _ = wire.ParseWire(p.Type) // checked when the file was read
	if f.given("base-url") {
		s.BaseURL = f.BaseURL
	}
	if f.given("wire") {
		if s.Wire, err = wire.ParseWire(f.Wire); err != nil {
			return UsageError{err}
		}
	}
	return nil
}

// chooseEndpoint picks the endpoint without providers: --base-url, else $OPENAI_BASE_URL,
// else OpenAI when $OPENAI_API_KEY is set, else the built-in demo ($ANTHROPIC_* and the
// Anthropic API for --wire anthropic); the model is --model, else "demo" on the demo, else
// $OPENAI_MODEL, else the format's default.
func (s *Settings) chooseEndpoint(f Flags, getenv func(string) string) error {
	if f.Provider != "" {
		return UsageError{fmt.Errorf("--provider %s needs a config file that defines it (%s)", f.Provider, configPlace(f.Config, getenv))}
	}
	as, err := wire.ParseWire(f.Wire)
	if err != nil {
		return err
	}
	keyEnv, envBase, defaultBase, envModel, defaultModel := DefaultKeyEnv, "OPENAI_BASE_URL", OpenAIBaseURL, "OPENAI_MODEL", OpenAIModel
	if as == wire.WireAnthropic {
		keyEnv, envBase, defaultBase, envModel, defaultModel = AnthropicKeyEnv, "ANTHROPIC_BASE_URL", AnthropicBaseURL, "ANTHROPIC_MODEL", AnthropicModel
	}
	s.Wire, s.Key, s.BaseURL, s.Model = as, KeySource{Env: keyEnv}, f.BaseURL, f.Model
	if s.BaseURL == "" {
		s.BaseURL = getenv(envBase)
	}
	if s.BaseURL == "" && getenv(keyEnv) != "" {
		s.BaseURL = defaultBase
	}
	if s.BaseURL == "" || s.BaseURL == DemoBaseURL {
		s.Demo, s.DemoAsked, s.BaseURL = true, s.BaseURL == DemoBaseURL || s.Model == fixtures.DemoModel, ""
		if s.Model == "" {
			s.Model = fixtures.DemoModel
		}
		return nil
	}
	if _, ok := ident.WebURL(s.BaseURL); !ok {
		return fmt.Errorf("the base URL %q is not an http(s) URL like http://127.0.0.1:8080/v1", s.BaseURL)
	}
	if s.Model == "" {
		s.Model = getenv(envModel)
	}
	if s.Model == "" {
		s.Model = defaultModel
	}
	return nil
}

// Configured is nil when the settings name an endpoint or ask for the demo; else it says how
// to configure one. A front end that must not fall back to the demo (a script's) checks it.
func (s Settings) Configured() error {
	if !s.Demo || s.DemoAsked {
		return nil
	}
	getenv := func(k string) string { v, _ := s.Env(k); return v }
	place := "~/.config/phasechat/config.toml"
	if p, err := config.DefaultPath(getenv); err == nil {
		place = p
	}
	return UsageError{fmt.Errorf("no endpoint is configured: export %s (and OPENAI_BASE_URL for a server other than OpenAI), pass --base-url URL, or define a provider in %s; --base-url %s asks for the built-in demo",
		DefaultKeyEnv, place, DemoBaseURL)}
}

// configPlace names the config file a session reads, for an error that found no provider
// there.
func configPlace(flag string, getenv config.Getenv) string {
	if flag != "" {
		return flag
	}
	if p, err := config.DefaultPath(getenv); err == nil {
		return p + " does not exist or defines no provider"
	}
	return "no config directory"
}

// ModelLabel names the session's model as the sessions list and the footer show it:
// provider/model when it is a provider's.
func (s Settings) ModelLabel() string {
	if s.Provider == "" {
		return s.Model
	}
	return s.Provider + "/" + s.Model
}

// dumbTerminal reports whether TERM says the terminal interprets no styling (dumb, or unset),
// as Bubble Tea's colour detection also reads it.
func dumbTerminal(env Lookup) bool {
	term, ok := env("TERM")
	return !ok || term == "" || term == "dumb"
}

// noSuchModel is what a request for the chosen model says when the server has no such model
// and the model was named "PROVIDER/MODEL" with a PROVIDER the file does not define: that
// there is no such provider, with the closest names; "" when the model was not so named.
func (s *Settings) noSuchModel() string {
	if s.Unmatched == "" || s.File == nil {
		return ""
	}
	msg := fmt.Sprintf("There is no provider %q in %s", s.Unmatched, s.File.Path)
	if near := s.File.Closest(s.Unmatched); len(near) > 0 {
		msg += " (did you mean " + strings.Join(near, " or ") + "?)"
	} else {
		msg += " (it defines " + strings.Join(s.File.Order, ", ") + ")"
	}
	return msg + fmt.Sprintf(", so %s went to provider %s as a model name, and its server has no such model", s.Model, s.Provider)
}

// chatCompactAt is CompactAt for the chat: a one-shot run ends with its turn, so it never
// compacts.
func (s *Settings) chatCompactAt() float64 {
	if s.OneShot {
		return 0
	}
	return s.CompactAt
}
