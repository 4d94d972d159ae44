package stream

import (
	"encoding/json"
	"testing"
)

// A model list entry's window and price are read where they are given and sane, and left
// unknown where not: no guess.
func TestServedBudget(t *testing.T) {
	for _, tc := range []struct {
		name, ctx, pricing string
		window             int
		in, out, cached    float64
		priced             bool
	}{
		{"OpenRouter's strings", `200000`, `{"prompt":"0.000003","completion":"0.000015","input_cache_read":"0.0000003"}`, 200000, 3, 15, 0.3, true},
		{"numbers", `8192`, `{"prompt":0.000001,"completion":0.000002}`, 8192, 1, 2, 0, true},
		{"free", `4096`, `{"prompt":"0","completion":"0"}`, 4096, 0, 0, 0, true},
		{"a router's -1", `2000000`, `{"prompt":"-1","completion":"-1"}`, 2000000, 0, 0, 0, false},
		{"no completion price", `1000`, `{"prompt":"0.000001"}`, 1000, 0, 0, 0, false},
		{"nothing", ``, ``, 0, 0, 0, 0, false},
		{"not numbers", `"big"`, `{"prompt":"cheap","completion":"cheap"}`, 0, 0, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := servedBudget(json.RawMessage(tc.ctx), json.RawMessage(tc.pricing))
			if m.Window != tc.window || (m.Price != nil) != tc.priced {
				t.Fatalf("%+v %+v", m, m.Price)
			}
			if p := m.Price; p != nil && (!near(p.In, tc.in) || !near(p.Out, tc.out) || !near(p.CachedIn, tc.cached)) {
				t.Fatalf("price %+v", *p)
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
