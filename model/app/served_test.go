package app

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
)

// openRouterModels is GET /models as OpenRouter answers it: each model's context_length, and
// its prices in US dollars per token as strings (-1: a router whose price varies).
const openRouterModels = `{"data":[
{"id":"openai/gpt-4o","name":"OpenAI: GPT-4o","context_length":111000,"pricing":{"prompt":"0.000003","completion":"0.00001","input_cache_read":"0.00000125","request":"0","image":"0.003613"}},
{"id":"acme/tiny-model","context_length":32768,"pricing":{"prompt":"0.0000001","completion":"0.0000004"}},
{"id":"openrouter/auto","context_length":2000000,"pricing":{"prompt":"-1","completion":"-1"}}]}`

func openRouter(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/models" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, openRouterModels)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/api/v1"
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// The window and prices an endpoint's model list gives are used over the catalogue's (which
// has no acme/tiny-model, and other numbers for gpt-4o); a [model."ID"] table still wins, and
// a price of -1 is no price.
func TestModelListsWindowAndPriceAreUsed(t *testing.T) {
	url := openRouter(t)
	s := &Settings{Provider: "or", BaseURL: url, Env: envOf(nil),
		File: mustParse(t, "[provider.or]\nbase_url = \""+url+"\"\n\n[model.\"openai/gpt-4o\"]\ncost_out = 12\n")}
	p := newProviders(s, secret.New())
	if _, err := p.start(); err != nil {
		t.Fatal(err)
	}
	if s.Model != "acme/tiny-model" {
		t.Fatalf("the first model listed is %q", s.Model)
	}
	tiny := s.ModelBudget("or", "acme/tiny-model")
	if tiny.Window != 32768 || tiny.Price == nil || !near(tiny.Price.In, 0.1) || !near(tiny.Price.Out, 0.4) {
		t.Fatalf("acme/tiny-model: %+v %+v", tiny, tiny.Price)
	}
	items, problems := p.models(context.Background())
	if len(problems) != 0 || len(items) != 3 {
		t.Fatalf("items %+v, problems %v", items, problems)
	}
	gpt := items[1].Budget
	if items[1].Model != "openai/gpt-4o" || gpt.Window != 111000 || gpt.Price == nil || !near(gpt.Price.In, 3) ||
		!near(gpt.Price.CachedIn, 1.25) || gpt.Price.Out != 12 {
		t.Fatalf("openai/gpt-4o: %+v %+v", gpt, gpt.Price)
	}
	if auto := items[2].Budget; auto.Window != 2000000 || auto.Price != nil {
		t.Fatalf("openrouter/auto: %+v %+v", auto, auto.Price)
	}
}
