package app

import (
	"io"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// endpointOf resolves the settings of flags (each given) in the environment env.
func endpointOf(t *testing.T, flags Flags, env map[string]string) (Settings, error) {
	t.Helper()
	var given []string
	for name, v := range map[string]string{"base-url": flags.BaseURL, "model": flags.Model, "wire": flags.Wire} {
		if v != "" {
			given = append(given, name)
		}
	}
	return Resolve(sources(t, flags, strings.Join(given, " "), "", env, ""))
}

func TestEndpointResolution(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	s, err := endpointOf(t, Flags{}, env)
	if err != nil || !s.Demo || s.Model != "demo" {
		t.Fatalf("no configuration must give the demo: %+v %v", s, err)
	}
	s.NoSave = true
	sess, err := Open(s, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if base := sess.Settings.BaseURL; !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasPrefix(sess.Footer.Endpoint, base) || !sess.Footer.Demo {
		t.Fatalf("the demo runs on loopback: %q, footer %+v", base, sess.Footer)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}

	env["OPENAI_API_KEY"] = "sk-test"
	if s, _ = endpointOf(t, Flags{}, env); s.Demo || s.BaseURL != OpenAIBaseURL || s.Model != "gpt-4o-mini" {
		t.Fatalf("a key alone must give OpenAI: %+v", s)
	}
	env["OPENAI_BASE_URL"], env["OPENAI_MODEL"] = "http://127.0.0.1:9/v1", "local"
	if s, _ = endpointOf(t, Flags{}, env); s.BaseURL != "http://127.0.0.1:9/v1" || s.Model != "local" {
		t.Fatalf("OPENAI_BASE_URL and OPENAI_MODEL: %+v", s)
	}
	if s, _ = endpointOf(t, Flags{BaseURL: "http://127.0.0.1:8/v1", Model: "m"}, env); s.BaseURL != "http://127.0.0.1:8/v1" || s.Model != "m" {
		t.Fatalf("flags win: %+v", s)
	}
	if _, err := endpointOf(t, Flags{BaseURL: "localhost:8080"}, env); err == nil || !strings.Contains(err.Error(), "not an http(s) URL") {
		t.Fatalf("a URL without a scheme must be refused clearly: %v", err)
	}
}

func TestEndpointResolutionByWire(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-openai", "ANTHROPIC_API_KEY": "sk-ant"}
	s, err := endpointOf(t, Flags{Wire: "anthropic"}, env)
	if err != nil || s.Wire != wire.WireAnthropic || s.Key.Env != "ANTHROPIC_API_KEY" || s.BaseURL != AnthropicBaseURL || s.Model != AnthropicModel {
		t.Fatalf("anthropic defaults: %+v %v", s, err)
	}
	if s, _ = endpointOf(t, Flags{Wire: "anthropic", BaseURL: "http://127.0.0.1:7/v1", Model: "m"}, env); s.BaseURL != "http://127.0.0.1:7/v1" || s.Model != "m" {
		t.Fatalf("--base-url and --model win for anthropic too: %+v", s)
	}
	if s, _ = endpointOf(t, Flags{Wire: "responses"}, env); s.Wire != wire.WireResponses || s.Key.Env != "OPENAI_API_KEY" || s.BaseURL != OpenAIBaseURL {
		t.Fatalf("responses uses the OpenAI defaults: %+v", s)
	}
	if _, err := endpointOf(t, Flags{Wire: "gemini"}, env); err == nil || !strings.Contains(err.Error(), "chat, anthropic or responses") {
		t.Fatalf("an unknown format must be refused clearly: %v", err)
	}
}

func TestTheDemoSaysSoAtStart(t *testing.T) {
	if got := withDemoNotice(true, ""); !strings.Contains(got, "built-in demo") || !strings.Contains(got, "OPENAI_API_KEY") {
		t.Errorf("demo notice %q", got)
	}
	if got := withDemoNotice(true, "Resumed 3 messages"); !strings.HasSuffix(got, "\nResumed 3 messages") {
		t.Errorf("the resume notice is lost: %q", got)
	}
	if got := withDemoNotice(false, "x"); got != "x" {
		t.Errorf("a real endpoint gets the demo notice: %q", got)
	}
}
