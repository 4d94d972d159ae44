package sessions

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

func usage(in, out int, cost float64) chat.Record {
	return chat.Record{Usage: &wire.Usage{PromptTokens: in, CompletionTokens: out, TotalTokens: in + out}, Cost: cost}
}

// The index entry sums the usage records of every process that wrote the conversation, and
// `sessions list` (the table and --json) and `sessions show` carry the totals.
func TestTokensAndCostAreListedAndShown(t *testing.T) {
	s := openStore(t)
	first := s.Begin(Start{Header: sessionlog.Header{Model: "m"}})
	first.Add(user("one"))
	first.Add(usage(1200, 340, 0.006))
	first.Add(assistant("1"))
	closeSession(t, first)
	m, err := s.Latest()
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Load(m)
	if err != nil {
		t.Fatal(err)
	}
	again := s.Begin(Start{Header: sessionlog.Header{Model: "m"}, Resume: r.Meta})
	again.Add(user("two"))
	again.Add(usage(1600, 60, 0.0012))
	again.Add(assistant("2"))
	closeSession(t, again)

	all, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || all[0].TokensIn != 2800 || all[0].TokensOut != 400 || all[0].CostUSD < 0.00719 || all[0].CostUSD > 0.00721 {
		t.Fatalf("entry %+v, want 2,800 in, 400 out, $0.0072", all)
	}
	var table bytes.Buffer
	if err := WriteTable(&table, all, s.Dir()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "TOKENS") || !strings.Contains(table.String(), "2,800↑ 400↓") || !strings.Contains(table.String(), "$0.0072") {
		t.Fatalf("the table lacks the totals:\n%s", table.String())
	}
	var list bytes.Buffer
	if err := WriteJSON(&list, all); err != nil {
		t.Fatal(err)
	}
	var decoded []map[string]any
	if err := json.Unmarshal(list.Bytes(), &decoded); err != nil || decoded[0]["tokens_in"] != 2800.0 || decoded[0]["tokens_out"] != 400.0 || decoded[0]["cost_usd"] == nil {
		t.Fatalf("list --json: %s (%v)", list.String(), err)
	}
	r, err = s.Load(all[0])
	if err != nil {
		t.Fatal(err)
	}
	var show bytes.Buffer
	if err := Markdown(&show, all[0], r.Log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(show.String(), "- Tokens: 2800 in, 400 out") || !strings.Contains(show.String(), "- Cost: $0.0072") {
		t.Fatalf("show lacks the totals:\n%s", show.String())
	}
}

// A conversation no server reported usage for shows "-" for both.
func TestNoUsageShowsDashes(t *testing.T) {
	var table bytes.Buffer
	if err := WriteTable(&table, []Meta{{ID: "a-1", Title: "t", Turns: 1}}, "dir"); err != nil {
		t.Fatal(err)
	}
	if rows := strings.Split(table.String(), "\n"); len(rows) < 2 || strings.Count(rows[1], " - ") != 2 {
		t.Fatalf("no usage: %q", table.String())
	}
}
