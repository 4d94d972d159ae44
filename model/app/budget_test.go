package app

import (
	"testing"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/stream/wire"
)

func TestModelBudgetIsTheCatalogueUnderTheFile(t *testing.T) {
	f, err := config.Parse([]byte(`[provider.local]
base_url = "http://127.0.0.1:9/v1"

[provider.claude]
type = "anthropic"
base_url = "http://127.0.0.1:8/v1"

[model."local/gpt-4o"]
context_window = 1000

[model."llama3.2"]
cost_in = 0.5
`), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := &Settings{File: f, Provider: "local", BaseURL: "http://127.0.0.1:9/v1", Wire: wire.WireChat}
	if m := s.ModelBudget("local", "gpt-4o"); m.Window != 1000 || m.Price == nil || m.Price.In != 2.5 || m.Price.Out != 10 {
		t.Errorf("local/gpt-4o: window %d price %+v; want the file's window and the catalogue's price", m.Window, m.Price)
	}
	if m := s.ModelBudget("local", "llama3.2"); m.Window != 0 || m.Price == nil || *m.Price != (budget.Price{In: 0.5}) {
		t.Errorf("llama3.2: window %d price %+v; want no window and the file's price only", m.Window, m.Price)
	}
	if m := s.ModelBudget("claude", "claude-sonnet-4-5"); m.Window != 200_000 || m.Price == nil || m.Price.In != 3 {
		t.Errorf("claude/claude-sonnet-4-5 (another provider, its own wire format): %+v", m)
	}
	if m := s.ModelBudget("local", "mystery"); m.Known() {
		t.Errorf("an unknown model is known: %+v", m)
	}
	demo := &Settings{Demo: true, BaseURL: "http://127.0.0.1:7/v1"}
	if m := demo.ModelBudget("", "gpt-4o"); m.Known() {
		t.Errorf("the demo's model is known: %+v", m)
	}
}

// The catalogue says which models take no images; the file's images key says otherwise, and
// a model neither knows takes them.
func TestModelBudgetSaysWhichModelsTakeNoImages(t *testing.T) {
	f, err := config.Parse([]byte(`[provider.local]
base_url = "http://127.0.0.1:9/v1"

[model."local/gpt-4o-mini"]
images = false

[model."o3-mini"]
context_window = 1
`), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := &Settings{File: f, Provider: "local", BaseURL: "http://127.0.0.1:9/v1", Wire: wire.WireChat}
	for _, tc := range []struct {
		model    string
		textOnly bool
	}{{"o3-mini", true}, {"gpt-4o", false}, {"gpt-4o-mini", true}, {"mystery", false}} {
		if m := s.ModelBudget("local", tc.model); m.TextOnly != tc.textOnly {
			t.Errorf("%s: text only %v, want %v", tc.model, m.TextOnly, tc.textOnly)
		}
	}
	on, err := config.Parse([]byte("[model.\"o3-mini\"]\nimages = true\n"), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	s.File = on
	if m := s.ModelBudget("", "o3-mini"); m.TextOnly {
		t.Error("images = true did not override the catalogue")
	}
}
