package mcp

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/phasechat/phasechat/internal/ident"
	"github.com/phasechat/phasechat/internal/safefile"
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/tomlpos"
	"github.com/phasechat/phasechat/model/tools"
)

// Defaults of a server's timeouts.
const (
	DefaultStartupTimeout = 10 * time.Second
	DefaultCallTimeout    = 60 * time.Second
)

// Config is the [mcp] section: one [mcp.NAME] table per server. It decodes with
// BurntSushi/toml; call Check on the result (LoadFile does) before using it.
type Config map[string]Server

// Server is one [mcp.NAME] table. A server is started from Command (stdio) or reached at
// URL (streamable HTTP); exactly one of the two is set.
type Server struct {
	Command string            `toml:"command"` // a program started directly, never through a shell
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"` // the child's only variables besides PATH and HOME; values may hold ${VAR}

	URL            string            `toml:"url"`
	Headers        map[string]string `toml:"headers"`          // values may hold ${VAR}
	BearerTokenEnv string            `toml:"bearer_token_env"` // Authorization: Bearer $VAR

	Enabled        *bool    `toml:"enabled"`         // nil means true
	StartupTimeout Duration `toml:"startup_timeout"` // 0 means DefaultStartupTimeout
	CallTimeout    Duration `toml:"call_timeout"`    // 0 means DefaultCallTimeout
	Tools          []string `toml:"tools"`           // allow-list of the server's own tool names; empty means all
	Approve        Approve  `toml:"approve"`         // "" means ApproveAuto
}

// Approve says when a server's tools ask before running.
type Approve string

const (
	ApproveAuto   Approve = "auto"   // tools annotated readOnlyHint run at once; the others ask
	ApproveAlways Approve = "always" // every tool asks
	ApproveNever  Approve = "never"  // no tool asks: the server is trusted like the user's own commands
)

// Duration is a TOML string such as "10s" or "2m".
type Duration time.Duration

// UnmarshalText reads a Go duration.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil || v <= 0 {
		return fmt.Errorf("%q is not a positive duration such as \"10s\" or \"2m\"", b)
	}
	*d = Duration(v)
	return nil
}

// IsEnabled reports whether the server is to be started.
func (s Server) IsEnabled() bool { return s.Enabled == nil || *s.Enabled }

// transport is how the server is reached: "http" for a URL, else "stdio".
func (s Server) transport() string {
	if s.URL != "" {
		return "http"
	}
	return "stdio"
}

// Startup is the startup timeout in force.
func (s Server) Startup() time.Duration { return orDefault(s.StartupTimeout, DefaultStartupTimeout) }

// CallLimit is the call timeout in force.
func (s Server) CallLimit() time.Duration { return orDefault(s.CallTimeout, DefaultCallTimeout) }

// Approval is the approval policy in force.
func (s Server) Approval() Approve {
	if s.Approve == "" {
		return ApproveAuto
	}
	return s.Approve
}

func orDefault(d Duration, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return time.Duration(d)
}

// validServerName reports whether name is 1 to 32 ASCII letters, digits, '_' and '-'.
func validServerName(name string) bool { return ident.Valid(name, 32, "_-") }

var (
	varName    = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*$`)
	varRef     = lazyRegexp(`\$\{([^}]*)\}`)
	serverKeys = []string{"command", "args", "env", "url", "headers", "bearer_token_env", "enabled",
		"startup_timeout", "call_timeout", "tools", "approve"}
)

// ConfigError is one problem in an [mcp] section, located by file, line and key.
type ConfigError struct {
	File    string
	Line    int    // from 1; 0 when unknown
	Key     string // dotted, e.g. mcp.github.url
	Problem string
}

func (e *ConfigError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += fmt.Sprintf(":%d", e.Line)
	}
	if e.Key != "" {
		loc += ": " + e.Key
	}
	return loc + ": " + e.Problem
}

// Source is where a decoded Config came from, for Check's messages.
type Source struct {
	File   string        // the file's name as the user knows it
	Text   []byte        // its contents, to find lines
	Meta   toml.MetaData // from toml.Decode; its undecoded keys under Prefix are unknown keys
	Prefix []string      // the keys the section sits under: {"mcp"}
}

// Check validates every server, returning all problems joined, each a *ConfigError. Keys
// under src.Prefix that did not decode into Server fields are errors too.
func (c Config) Check(src Source) error {
	lines := tomlpos.New(string(src.Text))
	at := func(keys ...string) (string, int) {
		full := append(slices.Clone(src.Prefix), keys...)
		return toml.Key(full).String(), lines.Line(full)
	}
	var errs []error
	bad := func(problem string, keys ...string) {
		k, l := at(keys...)
		errs = append(errs, &ConfigError{File: src.File, Line: l, Key: k, Problem: problem})
	}
	for _, k := range src.Meta.Undecoded() {
		if len(k) <= len(src.Prefix) || !slices.Equal([]string(k[:len(src.Prefix)]), src.Prefix) {
			continue
		}
		rest := k[len(src.Prefix):]
		if len(rest) == 2 || (len(rest) > 2 && !slices.Contains([]string{"env", "headers"}, rest[1])) {
			bad("unknown key; the keys of a server are "+strings.Join(serverKeys, ", "), rest...)
		}
	}
	for _, name := range sortedNames(c) {
		s := c[name]
		if !validServerName(name) {
			bad("the server's name must be 1-32 letters, digits, _ or - (it prefixes its tools' names)", name)
		}
		switch {
		case s.Command == "" && s.URL == "":
			bad("give either command (a program to start) or url (a streamable HTTP endpoint)", name)
		case s.Command != "" && s.URL != "":
			bad("give command or url, not both", name, "url")
		}
		if s.URL != "" {
			if u, ok := ident.WebURL(s.URL); !ok {
				bad("must be an http(s) URL such as http://127.0.0.1:3000/mcp", name, "url")
			} else if u.User != nil {
				bad("must not carry credentials; put a token in headers or bearer_token_env", name, "url")
			}
			if len(s.Args) > 0 || len(s.Env) > 0 {
				bad("args and env belong to a command; a URL server takes headers", name)
			}
		}
		if s.Command != "" && (len(s.Headers) > 0 || s.BearerTokenEnv != "") {
			bad("headers and bearer_token_env belong to a url server", name)
		}
		if strings.ContainsRune(s.Command, 0) || slices.ContainsFunc(s.Args, func(a string) bool { return strings.ContainsRune(a, 0) }) {
			bad("must not contain NUL bytes", name, "command")
		}
		for _, k := range sortedNames(s.Env) {
			if !varName().MatchString(k) {
				bad("is not a variable name", name, "env", k)
			}
			if isProviderKey(k) {
				bad("provider API keys are never given to MCP servers", name, "env", k)
			}
			if p := refProblem(s.Env[k]); p != "" {
				bad(p, name, "env", k)
			}
		}
		for _, k := range sortedNames(s.Headers) {
			if k == "" || strings.ContainsAny(k, " :\r\n") {
				bad("is not a header name", name, "headers", k)
			}
			if strings.ContainsAny(s.Headers[k], "\r\n") {
				bad("a header value must be one line", name, "headers", k)
			}
			if p := refProblem(s.Headers[k]); p != "" {
				bad(p, name, "headers", k)
			}
		}
		if v := s.BearerTokenEnv; v != "" {
			switch {
			case !varName().MatchString(v):
				bad("must name an environment variable, e.g. GITHUB_TOKEN", name, "bearer_token_env")
			case isProviderKey(v):
				bad("provider API keys are never given to MCP servers", name, "bearer_token_env")
			}
		}
		seen := map[string]bool{}
		for _, t := range s.Tools {
			if strings.TrimSpace(t) == "" || seen[t] {
				bad("must list distinct, non-empty tool names as the server calls them", name, "tools")
				break
			}
			seen[t] = true
		}
		switch s.Approve {
		case "", ApproveAuto, ApproveAlways, ApproveNever:
		default:
			bad(`must be "auto" (read-only tools run, others ask), "always" or "never"`, name, "approve")
		}
	}
	return errors.Join(errs...)
}

// refProblem checks the ${VAR} references in a value.
func refProblem(v string) string {
	for _, m := range varRef().FindAllStringSubmatch(v, -1) {
		switch {
		case !varName().MatchString(m[1]):
			return fmt.Sprintf("${%s} is not a variable reference; write ${NAME}", m[1])
		case isProviderKey(m[1]):
			return fmt.Sprintf("${%s}: provider API keys are never given to MCP servers", m[1])
		}
	}
	return ""
}

// isProviderKey reports whether a variable is one of those that carry provider credentials
// (tools.ProviderEnv); no MCP server is ever given one, whatever the configuration says.
func isProviderKey(name string) bool { return slices.Contains(tools.ProviderEnv, name) }

// environ is the environment servers' ${VAR} references are read from: lookup, less the
// variables that carry provider credentials (hidden) and any value holding a secret.
type environ struct {
	lookup  func(string) (string, bool)
	hidden  func(string) bool
	secrets *secret.Set
}

// expand replaces each ${VAR} in v by the variable's value. A variable that is not set, that
// carries a provider's key, or whose value holds a secret is an error naming it (never its
// value).
func (e environ) expand(v string) (string, error) {
	var missing, refused []string
	out := varRef().ReplaceAllStringFunc(v, func(ref string) string {
		name := ref[2 : len(ref)-1]
		if isProviderKey(name) || (e.hidden != nil && e.hidden(name)) {
			refused = append(refused, name)
			return ""
		}
		val, ok := e.lookup(name)
		if !ok {
			missing = append(missing, name)
		} else if e.secrets.Contains(val) {
			refused = append(refused, name)
		}
		return val
	})
	switch {
	case len(refused) > 0:
		return "", fmt.Errorf("%s carries a provider's key, which is never given to MCP servers", strings.Join(refused, ", "))
	case len(missing) > 0:
		return "", fmt.Errorf("the variable %s is not set", strings.Join(missing, ", "))
	}
	return out, nil
}

// get reads one variable with the same rules as expand.
func (e environ) get(name string) (string, bool, error) {
	v, err := e.expand("${" + name + "}")
	if err != nil {
		if _, ok := e.lookup(name); !ok {
			return "", false, nil
		}
		return "", false, err
	}
	return v, true, nil
}

// LoadFile reads a file of [mcp.NAME] tables (--mcp FILE) and checks it.
func LoadFile(path string) (Config, error) {
	data, err := safefile.ReadFile(path, safefile.MaxConfigSize)
	if err != nil {
		return nil, fmt.Errorf("mcp: %w", err)
	}
	return Parse(data, path)
}

// Parse decodes and checks the text of a file of [mcp.NAME] tables, naming it file in errors.
func Parse(data []byte, file string) (Config, error) {
	var doc struct {
		MCP Config `toml:"mcp"`
	}
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &ConfigError{File: file, Line: pe.Position.Line, Key: pe.LastKey, Problem: pe.Message}
		}
		return nil, typeProblem(file, err)
	}
	var errs []error
	lines := tomlpos.New(string(data))
	for _, k := range md.Undecoded() {
		if k[0] != "mcp" {
			errs = append(errs, &ConfigError{File: file, Line: lines.Line(k), Key: k.String(),
				Problem: "unknown key; this file holds only [mcp.NAME] tables"})
		}
	}
	if err := doc.MCP.Check(Source{File: file, Text: data, Meta: md, Prefix: []string{"mcp"}}); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if doc.MCP == nil {
		doc.MCP = Config{}
	}
	return doc.MCP, nil
}

var (
	typeError = lazyRegexp(`^toml: (?:line (\d+) )?\(last key "([^"]*)"\): (.*)$`)
	wrongType = lazyRegexp(`^incompatible types: TOML value has type (\S+); destination has type (\S+)$`)
	tomlTypes = map[string]string{"[]any": "array", "[]interface {}": "array", "map[string]any": "table",
		"map[string]interface {}": "table", "int64": "integer", "float64": "float", "bool": "boolean", "string": "string"}
)

// typeProblem words a decoding error that is not a syntax error: a value of the wrong type.
func typeProblem(file string, err error) error {
	m := typeError().FindStringSubmatch(err.Error())
	if m == nil {
		return &ConfigError{File: file, Problem: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	line := 0
	fmt.Sscan(m[1], &line)
	problem := m[3]
	if w := wrongType().FindStringSubmatch(problem); w != nil {
		got := tomlTypes[w[1]]
		if got == "" {
			got = w[1]
		}
		want := strings.TrimPrefix(w[2], "mcp.")
		switch want {
		case "[]string":
			want = "list of strings"
		case "map[string]string":
			want = "table of strings"
		case "*bool":
			want = "boolean"
		}
		problem = fmt.Sprintf("a TOML %s where a %s belongs", got, want)
	}
	return &ConfigError{File: file, Line: line, Key: m[2], Problem: problem}
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// lazyRegexp compiles a pattern the first time it is used, not at every start.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
