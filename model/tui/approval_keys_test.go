package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Typing on while a question appears never answers it: not the queued keys, not a burst of
// typing, not a lowercase a; only a key after the keyboard was still does.
func TestTypingNeverApprovesATool(t *testing.T) {
	h := newHarness(t, "note", 120, 24)
	h.submit("note: buy milk")
	for h.feedStream().More {
	}
	if !h.m.Chat().Asking() {
		t.Fatal("no approval question")
	}
	h.typeText("thanks, can you say yes? ayyy nnn")
	if !h.m.Chat().Asking() {
		t.Fatal("typing answered the approval question")
	}
	h.quiet()
	h.send(keyRune('a'))
	if !h.m.Chat().Asking() {
		t.Fatal("a lowercase a answered the question")
	}
	h.quiet()
	h.send(tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Mod: tea.ModShift, Text: "A"})
	if h.m.Chat().Asking() {
		t.Fatal("a deliberate A did not answer")
	}
	h.expect("allowed", working("write_note"))
}

// A timer of an earlier wait does not arm the question after later typing.
func TestAStaleApprovalTimerArmsNothing(t *testing.T) {
	h := newHarness(t, "note", 120, 24)
	h.submit("note: buy milk")
	for h.feedStream().More {
	}
	stale := h.timers
	h.timers = nil
	h.send(keyRune('x')) // typing: a new wait begins
	h.timers = nil
	for _, q := range stale {
		h.send(q)
	}
	h.send(keyRune('y'))
	if !h.m.Chat().Asking() {
		t.Fatal("a stale timer let y answer")
	}
}

// Keys typed while the approval question is shown go to the draft: none is lost, none
// answers.
func TestTypingDuringAnApprovalQuestionGoesToTheDraft(t *testing.T) {
	h := newHarness(t, "note", 120, 24)
	h.submit("note: buy milk")
	for h.feedStream().More {
	}
	if !h.m.Chat().Asking() {
		t.Fatal("no approval question")
	}
	typed := "thanks, can you say yes? ayyy nnn"
	h.typeText(typed)
	if !h.m.Chat().Asking() {
		t.Fatal("typing answered the approval question")
	}
	if got := h.m.composer.Value(); got != typed {
		t.Fatalf("the draft is %q, want every key typed: %q", got, typed)
	}
	h.quiet()
	h.send(keyRune('y'))
	if h.m.Chat().Asking() {
		t.Fatal("a deliberate y did not answer")
	}
	if got := h.m.composer.Value(); got != typed {
		t.Fatalf("answering changed the draft to %q", got)
	}
}
