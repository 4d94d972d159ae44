// Package config reads phasechat's config file: named providers (where to send requests, how
// to get the key, which models exist, request options) and session defaults. The format is
// documented in docs/config.md, with a JSON Schema in docs/config.schema.json and a commented
// example in testdata/example-config.toml.
//
// Reading a file never runs anything and never reads a key: keys are resolved per provider,
// once, by Provider.Resolve, so a key command only runs for a provider that is used.
package config

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/phasechat/phasechat/internal/ident"
	"github.com/phasechat/phasechat/internal/safefile"
	"github.com/phasechat/phasechat/model/mcp"
	"github.com/phasechat/phasechat/model/tomlpos"
)

// File is a parsed config file. Zero values mean "not set": the command line's defaults apply.
type File struct {
	// Default is the provider used when the command line names none: "NAME" or "NAME/MODEL".
	Default string `toml:"default"`
	// System is the system prompt sent first with every request.
	System string `toml:"system"`
	// StallTimeout ends a stream silent this long; nil when not set, 0 turns the watchdog off.
	StallTimeout *Duration `toml:"stall_timeout"`
	// MaxSteps bounds the requests of one turn; 0 when not set.
	MaxSteps int `toml:"max_steps"`
	// MaxReply caps one reply, in MiB; 0 when not set.
	MaxReply int `toml:"max_reply"`
	// Measure is the widest, in columns, a reply's prose, tables and code are drawn in the
	// full-screen mode; 0 when not set (100).
	Measure int `toml:"measure"`
	// CompactAt, between 0 and 1 (exclusive), compacts the conversation on its own once the
	// last request filled this share of the model's context window; 0 when not set (never).
	CompactAt float64 `toml:"compact_at"`
	// Save says whether sessions are kept on disk; nil when not set (the sessions store's
	// default applies).
	Save *bool `toml:"save"`
	// SaveOneShot says whether one-shot runs (-p) are kept; nil when not set (they are, marked
	// as one-shot).
	SaveOneShot *bool `toml:"save_oneshot"`
	// Inline runs the chat in the terminal's own screen, as --inline does; nil when not set.
	Inline *bool `toml:"inline"`
	// Theme is the full-screen chat's colours, one of Themes; "" when not set.
	Theme string `toml:"theme"`
	// Providers by name.
	Providers map[string]*Provider `toml:"provider"`
	// MCP are the MCP servers to start, [mcp.NAME] tables (checked by mcp.Config.Check).
	MCP mcp.Config `toml:"mcp"`
	// ModelInfo are [model."ID"] tables by ID: a model's context window and prices.
	ModelInfo map[string]*ModelInfo `toml:"model"`

	// Path is the file this was read from ("" for text parsed without one).
	Path string `toml:"-"`
	// Order lists the provider names in the order the file declares them.
	Order []string `toml:"-"`
	// Warnings are problems that do not stop the file from being used (a literal key in a
	// file others can read). Each names the file.
	Warnings []string `toml:"-"`
}

// Provider is one [provider.NAME] table.
type Provider struct {
	Name string `toml:"-"`
	// Type is the provider's wire format: "openai" (Chat Completions, the default),
	// "anthropic" (Messages) or "openai-responses" (Responses).
	Type string `toml:"type"`
	// BaseURL is the API root; requests go to BaseURL/chat/completions.
	BaseURL string `toml:"base_url"`
	// APIKey is a literal key. Prefer APIKeyEnv or APIKeyCmd: a file is easy to leak.
	APIKey string `toml:"api_key"`
	// APIKeyEnv names the environment variable holding the key. The default provider reads
	// OPENAI_API_KEY when no key source is set.
	APIKeyEnv string `toml:"api_key_env"`
	// APIKeyCmd is a program and its arguments, run without a shell; its trimmed standard
	// output is the key.
	APIKeyCmd []string `toml:"api_key_cmd"`
	// Headers are sent with every request; a value may name environment variables as ${VAR}.
	Headers map[string]string `toml:"headers"`
	// Models are the provider's models for the picker; empty means ask the server (GET /models).
	Models []string `toml:"models"`
	// DefaultModel is the model used when none is named; else the first of Models.
	DefaultModel string `toml:"default_model"`
	// StreamOptions says whether stream_options {"include_usage": true} is sent.
	StreamOptions StreamOptions `toml:"stream_options"`
	// MaxTokens caps each reply (max_tokens); nil: not sent.
	MaxTokens *int `toml:"max_tokens"`
	// Temperature is sent when not nil.
	Temperature *float64 `toml:"temperature"`
	// ReasoningEffort is sent as reasoning_effort when not empty.
	ReasoningEffort string `toml:"reasoning_effort"`
	// ExtraBody is merged into every request's JSON body.
	ExtraBody map[string]any `toml:"extra_body"`
}

// StreamOptions is the stream_options setting: "auto" (the default: sent, and dropped for the
// rest of the session when the server rejects it), true (always sent) or false (never).
type StreamOptions string

const (
	StreamOptionsAuto StreamOptions = "auto"
	StreamOptionsOn   StreamOptions = "true"
	StreamOptionsOff  StreamOptions = "false"
)

// UnmarshalTOML accepts true, false and "auto".
func (s *StreamOptions) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case bool:
		*s = StreamOptionsOff
		if v {
			*s = StreamOptionsOn
		}
		return nil
	case string:
		if v == string(StreamOptionsAuto) {
			*s = StreamOptionsAuto
			return nil
		}
	}
	return fmt.Errorf(valueProblem+`must be true, false or "auto", not %s`, describe(v))
}

// Duration is a Go duration written as a string, e.g. "30s" or "2m".
type Duration struct{ time.Duration }

// UnmarshalTOML accepts a duration string such as "45s"; "0" turns the setting off.
func (d *Duration) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf(valueProblem+`must be a duration in quotes such as "30s", not %s`, describe(v))
	}
	p, err := time.ParseDuration(s)
	if err != nil || p < 0 {
		return fmt.Errorf(valueProblem+`must be a duration such as "30s" or "2m" (0 or more), not %q`, s)
	}
	d.Duration = p
	return nil
}

// valueProblem marks the errors of this package's own value decoders, which the TOML decoder
// passes on as parse errors: they are about a value, not about the file's syntax.
const valueProblem = "\x00value: "

func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case nil:
		return "nothing"
	default:
		return fmt.Sprintf("%v", v)
	}
}

// Error is one problem in a config file: the file, the line (0 when unknown), the key
// ("provider.openai.base_url"; "" for the whole file) and what is wrong, in words.
type Error struct {
	File    string
	Line    int
	Key     string
	Problem string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	return b.String() + ": " + e.Problem
}

// Load reads and checks the config file at path: a regular file (a link to one is followed) of
// at most safefile.MaxConfigSize bytes. A missing file gives an error matching fs.ErrNotExist.
func Load(path string) (*File, error) {
	data, err := safefile.ReadFile(path, safefile.MaxConfigSize)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err) // names the path
	}
	f, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	if w := permissionWarning(path, f); w != "" {
		f.Warnings = append(f.Warnings, w)
	}
	return f, nil
}

// Parse checks config text, naming it file in errors. Every problem found is reported, each
// an *Error, joined in file order.
func Parse(data []byte, file string) (*File, error) {
	f := &File{Path: file}
	text := string(data)
	md, err := toml.Decode(text, f)
	if err != nil {
		return nil, decodeError(file, text, err)
	}
	loc := tomlpos.New(text)
	var errs []error
	bad := func(key []string, format string, args ...any) {
		errs = append(errs, &Error{File: file, Line: loc.Line(key), Key: toml.Key(key).String(), Problem: fmt.Sprintf(format, args...)})
	}
	for _, k := range md.Undecoded() {
		if len(k) >= 4 && k[0] == "provider" && k[2] == "extra_body" {
			continue // extra_body is free-form
		}
		if k[0] == "mcp" {
			continue // the [mcp] section's own check reports these
		}
		bad(k, "unknown key%s", suggestion(k))
	}
	for _, k := range md.Keys() {
		if len(k) == 2 && k[0] == "provider" && !containsString(f.Order, k[1]) {
			f.Order = append(f.Order, k[1])
		}
	}
	notTable := func(key ...string) bool { t := md.Type(key...); return t != "" && t != "Hash" }
	if notTable("provider") {
		bad([]string{"provider"}, "must be a table of providers: write [provider.NAME] and its keys under it")
	}
	for _, name := range f.Order {
		for _, k := range []string{"headers", "extra_body"} {
			if notTable("provider", name, k) {
				bad([]string{"provider", name, k}, "must be a table, such as { name = \"value\" }, not %s", strings.ToLower(md.Type("provider", name, k)))
			}
		}
	}
	if f.MaxSteps < 0 || (md.IsDefined("max_steps") && f.MaxSteps == 0) {
		bad([]string{"max_steps"}, "must be at least 1 (it counts the requests of one turn), not %d", f.MaxSteps)
	}
	if md.IsDefined("theme") && !containsString(Themes, f.Theme) {
		bad([]string{"theme"}, "must be one of %s, not %q", strings.Join(Themes, ", "), f.Theme)
	}
	if f.Measure < 0 || (md.IsDefined("measure") && f.Measure < 20) {
		bad([]string{"measure"}, "must be at least 20 (the columns a reply's text may take), not %d", f.Measure)
	}
	if md.IsDefined("compact_at") && (f.CompactAt <= 0 || f.CompactAt >= 1) {
		bad([]string{"compact_at"}, "must be between 0 and 1, the share of the context window that starts a compaction (0.9 is 90%%), not %g", f.CompactAt)
	}
	if f.MaxReply < 0 || (md.IsDefined("max_reply") && f.MaxReply == 0) {
		bad([]string{"max_reply"}, "must be at least 1 (MiB one reply may have), not %d", f.MaxReply)
	}
	for _, name := range f.Order {
		p := f.Providers[name]
		if p == nil {
			continue
		}
		p.Name = name
		checkProvider(p, md, func(field string, format string, args ...any) {
			bad([]string{"provider", name, field}, format, args...)
		})
		if !validProviderName(name) {
			bad([]string{"provider", name}, "a provider's name may hold only letters, digits, '.', '_' and '-' (it is written as NAME/MODEL)")
		}
	}
	if notTable("model") {
		bad([]string{"model"}, "must be a table of models: write [model.\"ID\"] and its keys under it")
	}
	for id, m := range f.ModelInfo {
		if m == nil {
			continue
		}
		checkModelInfo(id, m, func(field string, format string, args ...any) {
			key := []string{"model", id}
			if field != "" {
				key = append(key, field)
			}
			bad(key, format, args...)
		})
	}
	if f.Default != "" {
		prov, _, _ := strings.Cut(f.Default, "/")
		if f.Providers[prov] == nil {
			bad([]string{"default"}, "names the provider %q, which the file does not define%s", prov, known(f.Order))
		}
	}
	if f.MCP != nil {
		if err := f.MCP.Check(mcp.Source{File: file, Text: data, Meta: md, Prefix: []string{"mcp"}}); err != nil {
			for _, e := range unjoin(err) {
				var ce *mcp.ConfigError
				if errors.As(e, &ce) {
					e = &Error{File: ce.File, Line: ce.Line, Key: ce.Key, Problem: ce.Problem}
				}
				errs = append(errs, e)
			}
		}
	}
	if len(errs) > 0 {
		sortByLine(errs)
		return nil, errors.Join(errs...)
	}
	return f, nil
}

// unjoin splits an errors.Join error into its parts.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}

// validProviderName reports whether name is 1 to 64 ASCII letters, digits, '.', '_' and '-'.
func validProviderName(name string) bool { return ident.Valid(name, 64, "._-") }

// reservedBody are request fields phasechat sets itself; extra_body may not replace them.
var reservedBody = []string{"model", "messages", "stream", "stream_options", "tools"}

var providerTypes = []string{"openai", "anthropic", "openai-responses"}

// Themes are the values of theme (and of --theme): auto follows the terminal's background, dark
// and light choose the colours for one.
var Themes = []string{"auto", "dark", "light"}

var reasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh"}

func checkProvider(p *Provider, md toml.MetaData, bad func(field, format string, args ...any)) {
	if md.IsDefined("provider", p.Name, "type") && !containsString(providerTypes, p.Type) {
		bad("type", "must be one of %s, not %q", strings.Join(providerTypes, ", "), p.Type)
	}
	if p.BaseURL == "" {
		bad("base_url", "is required: the API root, e.g. \"https://api.openai.com/v1\"")
	} else if u, ok := ident.WebURL(p.BaseURL); !ok {
		bad("base_url", "%q is not an http(s) URL like \"http://127.0.0.1:8080/v1\"", p.BaseURL)
	} else if u.User != nil {
		bad("base_url", "must not hold a user name or password; use api_key_env or headers")
	}
	sources := 0
	for _, set := range []bool{md.IsDefined("provider", p.Name, "api_key"), p.APIKeyEnv != "", len(p.APIKeyCmd) > 0} {
		if set {
			sources++
		}
	}
	if sources > 1 {
		bad("api_key", "set only one of api_key, api_key_env and api_key_cmd")
	}
	if md.IsDefined("provider", p.Name, "api_key_env") && !validEnvName().MatchString(p.APIKeyEnv) {
		bad("api_key_env", "must be the name of an environment variable, e.g. \"OPENROUTER_API_KEY\", not %q", p.APIKeyEnv)
	}
	if md.IsDefined("provider", p.Name, "api_key_cmd") && (len(p.APIKeyCmd) == 0 || p.APIKeyCmd[0] == "") {
		bad("api_key_cmd", "must name a program and its arguments, e.g. [\"pass\", \"show\", \"openai\"]")
	}
	for name, value := range p.Headers {
		if !validHeaderName().MatchString(name) {
			bad("headers", "%q is not a valid header name", name)
		}
		if _, err := Variables(value); err != nil {
			bad("headers", "%s: %v", name, err)
		}
	}
	seen := map[string]bool{}
	for _, m := range p.Models {
		switch {
		case strings.TrimSpace(m) == "":
			bad("models", "holds an empty model name")
		case seen[m]:
			bad("models", "lists %q twice", m)
		}
		seen[m] = true
	}
	if md.IsDefined("provider", p.Name, "default_model") && strings.TrimSpace(p.DefaultModel) == "" {
		bad("default_model", "is empty; name a model or leave the key out")
	}
	if p.MaxTokens != nil && *p.MaxTokens < 1 {
		bad("max_tokens", "must be at least 1, not %d", *p.MaxTokens)
	}
	if t := p.Temperature; t != nil && (*t < 0 || *t > 2) {
		bad("temperature", "must be between 0 and 2, not %v", *t)
	}
	if md.IsDefined("provider", p.Name, "reasoning_effort") && !containsString(reasoningEfforts, p.ReasoningEffort) {
		bad("reasoning_effort", "must be one of %s, not %q", strings.Join(reasoningEfforts, ", "), p.ReasoningEffort)
	}
	for k := range p.ExtraBody {
		if containsString(reservedBody, k) {
			bad("extra_body", "cannot set %q: phasechat sets it itself (use stream_options for that one)", k)
		}
	}
}

var (
	validEnvName    = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*$`)
	validHeaderName = lazyRegexp("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
)

// DefaultProvider is the provider used when the command line names none: the one Default
// names, else the only one, else the first the file declares. nil when there is none.
func (f *File) DefaultProvider() *Provider {
	if f == nil || len(f.Order) == 0 {
		return nil
	}
	if f.Default != "" {
		prov, _, _ := strings.Cut(f.Default, "/")
		return f.Providers[prov]
	}
	return f.Providers[f.Order[0]]
}

// DefaultModel is the model Default names after its "/", or "".
func (f *File) DefaultModel() string {
	if f == nil {
		return ""
	}
	_, model, _ := strings.Cut(f.Default, "/")
	return model
}

// decodeError turns the TOML decoder's error into an *Error with the file, line and key.
func decodeError(file, text string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := strings.TrimPrefix(pe.Message, "toml: ")
		if !strings.HasPrefix(msg, valueProblem) {
			msg = "not valid TOML: " + msg
		}
		return &Error{File: file, Line: pe.Position.Line, Key: pe.LastKey, Problem: strings.TrimPrefix(msg, valueProblem)}
	}
	msg := strings.TrimPrefix(err.Error(), "toml: ")
	m := typeError().FindStringSubmatch(msg)
	if m == nil {
		return &Error{File: file, Problem: "not valid TOML: " + msg}
	}
	e := &Error{File: file, Key: m[2], Problem: m[3]}
	if m[1] != "" {
		fmt.Sscan(m[1], &e.Line)
	} else {
		e.Line = tomlpos.New(text).Line(tomlpos.SplitKey(m[2]))
	}
	if t := wrongType().FindStringSubmatch(m[3]); t != nil {
		e.Problem = "must be " + article(t[2]) + ", not " + article(t[1])
	}
	return e
}

var (
	typeError = lazyRegexp(`^(?:line (\d+) )?\(last key "([^"]*)"\): (.*)$`)
	wrongType = lazyRegexp(`^incompatible types: TOML value has type ([\w-]+); destination has type ([\w.\[\]-]+)$`)
)

// article names a type the way a sentence does: "a string", "an integer", "a table".
func article(t string) string {
	switch t {
	case "int64", "integer", "int":
		return "an integer"
	case "float64", "float":
		return "a number"
	case "bool":
		return "true or false"
	case "map", "struct", "map[string]any", "table":
		return "a table"
	case "[]any", "slice", "array":
		return "an array"
	}
	if strings.HasPrefix(t, "[]") {
		return "an array"
	}
	if strings.HasPrefix(t, "map") {
		return "a table"
	}
	return "a " + t
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func known(names []string) string {
	if len(names) == 0 {
		return " (it defines no [provider.NAME] table)"
	}
	return " (it defines " + strings.Join(names, ", ") + ")"
}

// lazyRegexp compiles a pattern the first time it is used, not at every start.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
