package app

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
)

// providersFile is a config file of three providers whose key sources differ.
const providersFile = `default = "first"
[provider.first]
base_url = "http://127.0.0.1:1/v1"
default_model = "text"
api_key_cmd = ["printf", "sk-cmd"]

[provider.second]
type = "anthropic"
base_url = "http://127.0.0.1:2/v1"
models = ["reasoning", "text"]
api_key_env = "SECOND_KEY"

[provider.third]
base_url = "http://127.0.0.1:3/v1"
api_key = "sk-literal"
`

// settingsFile is a config file with every session setting and no provider.
const settingsFile = `system = "from the file"
stall_timeout = "7s"
max_steps = 3
max_reply = 2
theme = "light"
inline = true
measure = 72
compact_at = 0.85
save = false
`

// TestSettingsPrecedence: for every setting with more than one source, a flag given beats the
// config file, which beats the environment, which beats the default.
func TestSettingsPrecedence(t *testing.T) {
	cases := []struct {
		name  string
		flags Flags
		given string // the flags given, by name
		file  string // the config file; "" for none
		env   map[string]string
		saved string // the model a continued conversation was saved with
		field string // the Settings field checked
		want  any
	}{
		// Where requests go, without providers.
		{name: "base URL: nothing configured is the demo", field: "Demo", want: true},
		{name: "base URL: the demo has no URL of its own", field: "BaseURL", want: ""},
		{name: "base URL: falling back to the demo is not asking for it", field: "DemoAsked", want: false},
		{name: "base URL: --base-url demo asks for the demo", flags: Flags{BaseURL: "demo"}, given: "base-url", env: map[string]string{"OPENAI_API_KEY": "sk"}, field: "DemoAsked", want: true},
		{name: "base URL: --base-url demo has no URL of its own", flags: Flags{BaseURL: "demo"}, given: "base-url", field: "BaseURL", want: ""},
		{name: "base URL: -m demo with nothing configured asks for the demo", flags: Flags{Model: "demo"}, given: "m", field: "DemoAsked", want: true},
		{name: "base URL: -m demo with a key is OpenAI's", flags: Flags{Model: "demo"}, given: "m", env: map[string]string{"OPENAI_API_KEY": "sk"}, field: "Demo", want: false},
		{name: "base URL: a key alone is OpenAI", env: map[string]string{"OPENAI_API_KEY": "sk"}, field: "BaseURL", want: OpenAIBaseURL},
		{name: "base URL: the environment", env: map[string]string{"OPENAI_API_KEY": "sk", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, field: "BaseURL", want: "http://127.0.0.1:9/v1"},
		{name: "base URL: the flag", flags: Flags{BaseURL: "http://127.0.0.1:8/v1"}, given: "base-url", env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, field: "BaseURL", want: "http://127.0.0.1:8/v1"},
		{name: "base URL: anthropic's default", flags: Flags{Wire: "anthropic"}, given: "wire", env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant", "OPENAI_API_KEY": "sk"}, field: "BaseURL", want: AnthropicBaseURL},
		{name: "base URL: anthropic's environment", flags: Flags{Wire: "anthropic"}, given: "wire", env: map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:7/v1"}, field: "BaseURL", want: "http://127.0.0.1:7/v1"},
		{name: "base URL: responses uses OpenAI's", flags: Flags{Wire: "responses"}, given: "wire", env: map[string]string{"OPENAI_API_KEY": "sk"}, field: "BaseURL", want: OpenAIBaseURL},
		{name: "base URL: --base-url beats the file's providers", flags: Flags{BaseURL: "http://127.0.0.1:8/v1"}, given: "base-url", file: providersFile, field: "Provider", want: ""},
		{name: "base URL: the chosen provider's", file: providersFile, env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, field: "BaseURL", want: "http://127.0.0.1:1/v1"},
		{name: "base URL: --base-url with --provider replaces its base_url", flags: Flags{Provider: "second", BaseURL: "http://127.0.0.1:8/v1"}, given: "provider base-url", file: providersFile, field: "BaseURL", want: "http://127.0.0.1:8/v1"},

		// The model.
		{name: "model: the demo's", field: "Model", want: "demo"},
		{name: "model: the demo ignores the environment's", env: map[string]string{"OPENAI_MODEL": "local"}, field: "Model", want: "demo"},
		{name: "model: the default", env: map[string]string{"OPENAI_API_KEY": "sk"}, field: "Model", want: OpenAIModel},
		{name: "model: the environment", env: map[string]string{"OPENAI_API_KEY": "sk", "OPENAI_MODEL": "local"}, field: "Model", want: "local"},
		{name: "model: the flag", flags: Flags{Model: "m"}, given: "model", env: map[string]string{"OPENAI_API_KEY": "sk", "OPENAI_MODEL": "local"}, field: "Model", want: "m"},
		{name: "model: anthropic's default", flags: Flags{Wire: "anthropic"}, given: "wire", env: map[string]string{"ANTHROPIC_API_KEY": "sk"}, field: "Model", want: AnthropicModel},
		{name: "model: the file's default beats the environment", file: providersFile, env: map[string]string{"OPENAI_MODEL": "local"}, field: "Model", want: "text"},
		{name: "model: a provider's first", flags: Flags{Provider: "second"}, given: "provider", file: providersFile, field: "Model", want: "reasoning"},
		{name: "model: none named: the server is asked", flags: Flags{Provider: "third"}, given: "provider", file: providersFile, field: "Model", want: ""},
		{name: "model: the saved one beats the file", file: providersFile, saved: "second/text", field: "Model", want: "text"},
		{name: "model: the flag beats the saved one", flags: Flags{Model: "first/other"}, given: "m", file: providersFile, saved: "second/text", field: "Model", want: "other"},

		// The provider.
		{name: "provider: the file's default", file: providersFile, field: "Provider", want: "first"},
		{name: "provider: the flag", flags: Flags{Provider: "second"}, given: "provider", file: providersFile, field: "Provider", want: "second"},
		{name: "provider: -m provider/model", flags: Flags{Model: "second/text"}, given: "m", file: providersFile, field: "Provider", want: "second"},
		{name: "provider: -m with a provider the file lacks is a model of the default", flags: Flags{Model: "secnd/text"}, given: "m", file: providersFile, field: "Unmatched", want: "secnd"},
		{name: "provider: -m provider/model matched", flags: Flags{Model: "second/text"}, given: "m", file: providersFile, field: "Unmatched", want: ""},
		{name: "provider: the saved one", file: providersFile, saved: "second/text", field: "Provider", want: "second"},
		{name: "provider: a saved one the file lost", file: providersFile, saved: "gone/text", field: "Provider", want: "first"},
		{name: "provider: --provider beats the saved one", flags: Flags{Provider: "third"}, given: "provider", file: providersFile, saved: "second/text", field: "Provider", want: "third"},

		// The key's source.
		{name: "key: OPENAI_API_KEY without providers", field: "Key", want: KeySource{Env: DefaultKeyEnv}},
		{name: "key: ANTHROPIC_API_KEY for anthropic", flags: Flags{Wire: "anthropic"}, given: "wire", field: "Key", want: KeySource{Env: AnthropicKeyEnv}},
		{name: "key: api_key_cmd", file: providersFile, field: "Key", want: KeySource{Command: []string{"printf", "sk-cmd"}}},
		{name: "key: api_key_env", flags: Flags{Provider: "second"}, given: "provider", file: providersFile, field: "Key", want: KeySource{Env: "SECOND_KEY"}},
		{name: "key: api_key", flags: Flags{Provider: "third"}, given: "provider", file: providersFile, field: "Key", want: KeySource{InFile: true}},
		{name: "key: a default provider without one reads OPENAI_API_KEY", file: "[provider.p]\nbase_url = \"http://127.0.0.1:1/v1\"\n", field: "Key", want: KeySource{Env: DefaultKeyEnv}},
		{name: "key: a default anthropic provider reads ANTHROPIC_API_KEY", file: "[provider.p]\ntype = \"anthropic\"\nbase_url = \"http://127.0.0.1:1/v1\"\n", field: "Key", want: KeySource{Env: AnthropicKeyEnv}},

		// The wire format.
		{name: "wire: the default", field: "Wire", want: wire.WireChat},
		{name: "wire: the provider's type", flags: Flags{Provider: "second"}, given: "provider", file: providersFile, field: "Wire", want: wire.WireAnthropic},
		{name: "wire: the flag beats the provider's type", flags: Flags{Provider: "second", Wire: "responses"}, given: "provider wire", file: providersFile, field: "Wire", want: wire.WireResponses},

		// The session's settings.
		{name: "system: none", field: "System", want: ""},
		{name: "system: the file", file: settingsFile, field: "System", want: "from the file"},
		{name: "system: the flag", flags: Flags{System: "from the flag"}, given: "system", file: settingsFile, field: "System", want: "from the flag"},
		{name: "stall timeout: the default", field: "StallTimeout", want: stream.DefaultStallTimeout},
		{name: "stall timeout: the file", file: settingsFile, field: "StallTimeout", want: 7 * time.Second},
		{name: "stall timeout: the flag, 0 too", given: "stall-timeout", file: settingsFile, field: "StallTimeout", want: time.Duration(0)},
		{name: "max steps: the default", field: "MaxSteps", want: chat.DefaultMaxSteps},
		{name: "max steps: the file", file: settingsFile, field: "MaxSteps", want: 3},
		{name: "max steps: the flag", flags: Flags{MaxSteps: 9}, given: "max-steps", file: settingsFile, field: "MaxSteps", want: 9},
		{name: "max reply: the default", field: "MaxReply", want: int64(stream.DefaultMaxReply)},
		{name: "max reply: the file, in MiB", file: settingsFile, field: "MaxReply", want: int64(2 << 20)},
		{name: "max reply: the flag", flags: Flags{MaxReplyMiB: 8}, given: "max-reply", file: settingsFile, field: "MaxReply", want: int64(8 << 20)},
		{name: "max tools: the flag", flags: Flags{MaxTools: 2}, given: "max-tools", field: "MaxTools", want: 2},
		{name: "theme: the default", field: "Theme", want: "auto"},
		{name: "theme: the file", file: settingsFile, field: "Theme", want: "light"},
		{name: "theme: the flag", flags: Flags{Theme: "dark"}, given: "theme", file: settingsFile, field: "Theme", want: "dark"},
		{name: "theme: a file without one", file: "system = \"x\"\n", field: "Theme", want: "auto"},
		{name: "inline: the default", field: "Inline", want: false},
		{name: "inline: the flag", flags: Flags{Inline: true}, given: "inline", field: "Inline", want: true},
		{name: "inline: the file", file: settingsFile, field: "Inline", want: true},
		{name: "inline: the file, off", file: "inline = false\n", field: "Inline", want: false},
		{name: "inline: --inline=false beats the file", given: "inline", file: settingsFile, field: "Inline", want: false},
		{name: "inline: --inline beats the file's false", flags: Flags{Inline: true}, given: "inline", file: "inline = false\n", field: "Inline", want: true},
		{name: "measure: the renderer's default", file: "system = \"x\"\n", field: "Measure", want: 0},
		{name: "measure: the file", file: settingsFile, field: "Measure", want: 72},
		{name: "compact_at: never by default", file: "system = \"x\"\n", field: "CompactAt", want: 0.0},
		{name: "compact_at: the file", file: settingsFile, field: "CompactAt", want: 0.85},
		{name: "saving: the default", field: "NoSave", want: false},
		{name: "saving: save = false in the file", file: settingsFile, field: "NoSave", want: true},
		{name: "saving: --no-save", flags: Flags{NoSave: true}, given: "no-save", field: "NoSave", want: true},
		{name: "accessible: the flag", flags: Flags{Accessible: true}, given: "accessible", field: "Accessible", want: true},
		{name: "accessible: ACCESSIBLE=1", env: map[string]string{"ACCESSIBLE": "1"}, field: "Accessible", want: true},
		{name: "colour: NO_COLOR", env: map[string]string{"NO_COLOR": "1", "TERM": "xterm"}, field: "NoColor", want: true},
		{name: "colour: a dumb terminal", env: map[string]string{"TERM": "dumb"}, field: "Dumb", want: true},
		{name: "colour: an unset TERM is dumb", field: "Dumb", want: true},
		{name: "colour: a real terminal", env: map[string]string{"TERM": "xterm-256color"}, field: "Dumb", want: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Resolve(sources(t, c.flags, c.given, c.file, c.env, c.saved))
			if err != nil {
				t.Fatal(err)
			}
			if got := reflect.ValueOf(s).FieldByName(c.field).Interface(); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("%s = %#v, want %#v", c.field, got, c.want)
			}
		})
	}
}

// TestSettingsMistakes: what no source can settle is an error saying what to fix; a mistake
// on the command line is a UsageError.
func TestSettingsMistakes(t *testing.T) {
	cases := []struct {
		name  string
		flags Flags
		given string
		file  string
		env   map[string]string
		err   string
		usage bool
	}{
		{name: "--provider without a config file", flags: Flags{Provider: "x"}, given: "provider", env: map[string]string{"XDG_CONFIG_HOME": "/cfg"}, err: "--provider x needs a config file that defines it (/cfg/phasechat/config.toml does not exist", usage: true},
		{name: "--provider the file does not define", flags: Flags{Provider: "nope"}, given: "provider", file: providersFile, err: `no provider named "nope"`, usage: true},
		{name: "--provider and -m disagree", flags: Flags{Provider: "first", Model: "second/text"}, given: "provider m", file: providersFile, err: "name different providers", usage: true},
		{name: "a base URL without a scheme", flags: Flags{BaseURL: "localhost:8080"}, given: "base-url", err: "not an http(s) URL"},
		{name: "an unknown wire format", flags: Flags{Wire: "gemini"}, given: "wire", err: "chat, anthropic or responses"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Resolve(sources(t, c.flags, c.given, c.file, c.env, ""))
			var u UsageError
			if err == nil || !strings.Contains(err.Error(), c.err) || errors.As(err, &u) != c.usage {
				t.Fatalf("err %v (usage %v), want %q (usage %v)", err, errors.As(err, &u), c.err, c.usage)
			}
		})
	}
}

// sources are the sources of one case: flags with those named in given marked as given, the
// config file's text, and an environment of env alone.
func sources(t *testing.T, flags Flags, given, file string, env map[string]string, saved string) Sources {
	t.Helper()
	flags.Given = map[string]bool{}
	for _, name := range strings.Fields(given) {
		flags.Given[name] = true
	}
	src := Sources{Flags: flags, Env: envOf(env), Saved: saved}
	if file != "" {
		src.File = mustParse(t, file)
	}
	return src
}

// TestResolveWithNoFileSettingsKeepsTheirDefaults: a config file of providers alone leaves
// every session setting as the flags' defaults have it.
func TestResolveWithNoFileSettingsKeepsTheirDefaults(t *testing.T) {
	s, err := Resolve(sources(t, Flags{}, "", providersFile, nil, ""))
	if err != nil {
		t.Fatal(err)
	}
	if s.System != "" || s.StallTimeout != stream.DefaultStallTimeout || s.MaxSteps != chat.DefaultMaxSteps || s.Theme != "auto" || s.NoSave || s.Measure != 0 {
		t.Fatalf("%+v", s)
	}
	if s.File == nil || !reflect.DeepEqual(s.File.Order, []string{"first", "second", "third"}) {
		t.Fatalf("the file is not kept: %+v", s.File)
	}
}

// TestOnlyTheDemoIsNotConfigured: settings that fell back to the demo say how to configure an
// endpoint (a usage mistake); an endpoint, or the demo asked for, is configured.
func TestOnlyTheDemoIsNotConfigured(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": "/cfg"}
	s, _ := Resolve(sources(t, Flags{}, "", "", env, ""))
	err := s.Configured()
	var u UsageError
	if err == nil || !errors.As(err, &u) {
		t.Fatalf("the demo fallen back to is configured: %v", err)
	}
	for _, want := range []string{"OPENAI_API_KEY", "--base-url", "/cfg/phasechat/config.toml", "--base-url demo"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	for _, c := range []struct {
		flags Flags
		given string
		env   map[string]string
	}{
		{Flags{BaseURL: "demo"}, "base-url", nil},
		{Flags{Model: "demo"}, "m", nil},
		{Flags{}, "", map[string]string{"OPENAI_API_KEY": "sk"}},
		{Flags{BaseURL: "http://127.0.0.1:1/v1"}, "base-url", nil},
	} {
		if s, _ := Resolve(sources(t, c.flags, c.given, "", c.env, "")); s.Configured() != nil {
			t.Errorf("%+v: %v", c.flags, s.Configured())
		}
	}
}

// A model named PROVIDER/MODEL whose provider the file lacks went to the default provider as a
// model name: when its server has no such model, the error says there is no such provider,
// with the closest names, instead of the server's list of models.
func TestNoSuchModelNamesTheMissingProvider(t *testing.T) {
	s, err := Resolve(sources(t, Flags{Model: "secnd/text"}, "m", providersFile, nil, ""))
	if err != nil {
		t.Fatal(err)
	}
	got := s.noSuchModel()
	for _, want := range []string{`no provider "secnd"`, "did you mean second?", "secnd/text went to provider first"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q does not say %q", got, want)
		}
	}
	s, err = Resolve(sources(t, Flags{Model: "second/text"}, "m", providersFile, nil, ""))
	if err != nil || s.noSuchModel() != "" {
		t.Errorf("a model of a configured provider gets advice %q (%v)", s.noSuchModel(), err)
	}
}

// A one-shot run ends with its turn: compact_at never starts a compaction after it.
func TestOneShotNeverCompacts(t *testing.T) {
	s := Settings{CompactAt: 0.9}
	if got := s.chatCompactAt(); got != 0.9 {
		t.Fatalf("chat: %g", got)
	}
	s.OneShot = true
	if got := s.chatCompactAt(); got != 0 {
		t.Fatalf("one-shot: %g", got)
	}
}
