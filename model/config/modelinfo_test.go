package config

import (
	"strings"
	"testing"
)

func TestModelTablesOverrideByProviderThenModel(t *testing.T) {
	f, err := Parse([]byte(`[provider.p]
base_url = "http://h/v1"

[model."gpt-4o"]
context_window = 100000
cost_in = 1.5

[model."p/gpt-4o"]
cost_in = 0
cost_cached_in = 0.25
`), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := f.ModelInfoFor("p", "gpt-4o")
	if m == nil || m.ContextWindow == nil || *m.ContextWindow != 100000 || m.CostIn == nil || *m.CostIn != 0 ||
		m.CostCachedIn == nil || *m.CostCachedIn != 0.25 || m.CostOut != nil {
		t.Errorf("p/gpt-4o: %+v: the provider's table over the model's, unset keys nil", m)
	}
	if m := f.ModelInfoFor("q", "gpt-4o"); m == nil || *m.CostIn != 1.5 {
		t.Errorf("q/gpt-4o: %+v, want the model's own table", m)
	}
	if m := f.ModelInfoFor("p", "other"); m != nil {
		t.Errorf("other: %+v, want nil", m)
	}
}

func TestModelTableErrorsNameTheLineAndKey(t *testing.T) {
	_, err := Parse([]byte(`[model."m"]
context_window = 0
cost_out = -1
cost_inn = 2
`), "c.toml")
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`c.toml:2: model.m.context_window: must be at least 1 (tokens), not 0`,
		`c.toml:3: model.m.cost_out: must be 0 or more (US dollars per million tokens), not -1`,
		`c.toml:4: model.m.cost_inn: unknown key; did you mean cost_in?`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}
