package chat

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// reply runs one text-only turn that reports u.
func (h *harness) reply(prompt string, u wire.Usage) {
	h.t.Helper()
	h.do(h.c.Submit(prompt))
	h.feed(text("ok"))
	h.end(complete(&u))
}

func notices(c *Chat) []string {
	var out []string
	for _, e := range c.Entries() {
		if e.Role() == transcript.RoleNotice {
			out = append(out, e.Text())
		}
	}
	return out
}

func TestCostAddsUpAtEachRequestsPrice(t *testing.T) {
	h := newHarness(t, Config{Model: "m", Budget: budget.Model{Window: 1000, Price: &budget.Price{In: 2, Out: 10, CachedIn: 1}}})
	if _, ok := h.c.Cost(); ok {
		t.Fatal("a cost before any request")
	}
	h.reply("a", wire.Usage{PromptTokens: 100, CachedTokens: 50, CompletionTokens: 10})
	h.c.SetBudget(budget.Model{Window: 1000, Price: &budget.Price{In: 1, Out: 1}})
	h.reply("b", wire.Usage{PromptTokens: 200, CompletionTokens: 20})
	want := (50*2+50*1+10*10)/1e6 + (200+20)/1e6
	if got, ok := h.c.Cost(); !ok || math.Abs(got-want) > 1e-15 {
		t.Errorf("cost %v, %v; want %v (each request at the price of its model, cached tokens as cached)", got, ok, want)
	}
	if fill, ok := h.c.Fill(); !ok || fill != 22 {
		t.Errorf("fill %d, %v; want 22 (the last request's prompt and reply)", fill, ok)
	}
}

func TestUnknownModelHasTokensButNoCostNorFill(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.reply("a", wire.Usage{PromptTokens: 100, CompletionTokens: 10})
	if _, ok := h.c.Cost(); ok {
		t.Error("a cost for a model without a price")
	}
	if _, ok := h.c.Fill(); ok {
		t.Error("a fill for a model without a window")
	}
	if u, ok := h.c.LastUsage(); !ok || u.PromptTokens != 100 {
		t.Errorf("last usage %+v, %v", u, ok)
	}
}

func TestFillWarningIsSaidOnce(t *testing.T) {
	h := newHarness(t, Config{Model: "m", Budget: budget.Model{Window: 1000}})
	h.reply("a", wire.Usage{PromptTokens: 700, CompletionTokens: 99})
	if n := notices(h.c); len(n) != 0 {
		t.Fatalf("at 79%%: %q", n)
	}
	h.reply("b", wire.Usage{PromptTokens: 800, CompletionTokens: 20})
	h.reply("c", wire.Usage{PromptTokens: 900, CompletionTokens: 20})
	n := notices(h.c)
	if len(n) != 1 || !strings.Contains(n[0], "82% full (820 of 1k tokens)") || !strings.Contains(n[0], "/new") || !strings.Contains(n[0], "/compact") {
		t.Fatalf("notices %q: want one warning at 82%% naming the way out", n)
	}
	h.c.Restart(nil)
	h.reply("d", wire.Usage{PromptTokens: 900, CompletionTokens: 20})
	if n := notices(h.c); len(n) != 1 {
		t.Errorf("a new conversation is warned again: %q", n)
	}
}

func TestToolDefinitionsOverATenthOfTheWindowAreSaidOnce(t *testing.T) {
	// fakeTools' three definitions are 19 bytes: ~5 tokens.
	h := newHarness(t, Config{Model: "m", Tools: fakeTools{}, Budget: budget.Model{Window: 60}})
	h.reply("a", wire.Usage{PromptTokens: 10})
	if n := notices(h.c); len(n) != 0 {
		t.Fatalf("5 tokens of a 60-token window: %q", n)
	}
	h.c.SetBudget(budget.Model{Window: 40})
	h.reply("b", wire.Usage{PromptTokens: 10})
	h.reply("c", wire.Usage{PromptTokens: 10})
	n := notices(h.c)
	if len(n) != 1 || !strings.Contains(n[0], "over 10% of the context (~5 of 40 tokens)") {
		t.Fatalf("notices %q: want one, naming the share", n)
	}
}

func TestUsageReportSaysWhatFillsTheContextAndWhatItCost(t *testing.T) {
	h := newHarness(t, Config{Model: "m", System: strings.Repeat("s", 40), Tools: fakeTools{},
		Budget: budget.Model{Window: 128_000, Price: &budget.Price{In: 1, Out: 2, CachedIn: 0.5}}})
	if got := strings.Join(h.c.UsageReport(), "\n"); !strings.Contains(got, "Context window: 128k tokens; no request has reported its usage yet.") ||
		!strings.Contains(got, "No request has reported its usage yet.") {
		t.Errorf("before any request:\n%s", got)
	}
	h.reply("hello", wire.Usage{PromptTokens: 32_000, CachedTokens: 1000, CompletionTokens: 300, ReasoningTokens: 200})
	got := strings.Join(h.c.UsageReport(), "\n")
	for _, want := range []string{
		"Context: 25% of 128k tokens (32,300 at the last request).",
		"system prompt ~10, tool definitions (MCP included) ~5, history of 2 messages ~2.",
		"Last request: 32,000 prompt tokens (1,000 cached), 300 completion tokens (200 reasoning), $0.032",
		"This conversation: 32,000 prompt tokens (1,000 cached), 300 completion tokens (200 reasoning), $0.032",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	unknown := newHarness(t, Config{Model: "m"})
	unknown.reply("hello", wire.Usage{PromptTokens: 10, CompletionTokens: 2})
	if got := strings.Join(unknown.c.UsageReport(), "\n"); !strings.Contains(got, "Context window: unknown") || !strings.Contains(got, "price unknown") {
		t.Errorf("an unknown model:\n%s", got)
	}
}

func TestWithdrawBeforeTheFirstByteGivesThePromptBack(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.reply("first", wire.Usage{})
	h.do(h.c.Submit("second thoughts"))
	text, effects, ok := h.c.Withdraw()
	if !ok || text != "second thoughts" {
		t.Fatalf("Withdraw = %q, %v", text, ok)
	}
	if len(effectsOf[Cancel](effects)) != 1 {
		t.Errorf("the request is not cancelled: %+v", effects)
	}
	if got := roles(h.c.History); strings.Join(got, ",") != "user,assistant" {
		t.Errorf("history %v: the withdrawn message must leave it", got)
	}
	entries := h.c.Entries()
	if last := entries[len(entries)-1]; last.Role() != transcript.RoleAssistant || last.Text() != "ok" {
		t.Errorf("the transcript ends with %v %q, want the first reply", last.Role(), last.Text())
	}
	if h.c.State.Phase.Streaming() || h.c.step != nil {
		t.Errorf("still streaming: %s", h.c.State.Phase)
	}
	if effects := h.c.Submit("again"); len(effectsOf[OpenStream](effects)) != 1 || len(effectsOf[OpenStream](effects)[0].Request.Messages) != 3 {
		t.Errorf("the next message is not sent with the conversation: %+v", effects)
	}
}

func TestWithdrawAfterTheFirstByteIsRefused(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.do(h.c.Submit("hello"))
	h.feed(text("H"))
	if _, effects, ok := h.c.Withdraw(); ok || effects != nil {
		t.Fatalf("withdrawn after the reply began")
	}
	if !h.c.State.Phase.Streaming() || len(h.c.History) != 1 {
		t.Errorf("a refused Withdraw changed the engine: %s, %d messages", h.c.State.Phase, len(h.c.History))
	}
}

// /usage counts the history as the oversize check does: a text file sent with a message is in
// it (4,000 bytes, ~1,000 tokens), so the two estimates never disagree.
func TestUsageReportCountsTextFilesLikeTheOversizeCheck(t *testing.T) {
	history := []wire.Message{
		{Role: "user", Parts: wire.TextParts("read"), Attachments: []wire.Attachment{{Kind: wire.AttachText, Name: "notes.txt", Size: 4000}}},
		{Role: "assistant", Parts: wire.TextParts("ok")},
	}
	c := New(Config{Model: "m"}, history)
	got := strings.Join(c.UsageReport(), "\n")
	if want := fmt.Sprintf("history of 2 messages ~%s.", format.Thousands(c.requestTokens())); !strings.Contains(got, want) || c.requestTokens() != 1002 {
		t.Errorf("requestTokens %d; missing %q in:\n%s", c.requestTokens(), want, got)
	}
}
