package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestTypingWhileAReplyStreamsKeepsADraft(t *testing.T) {
	h := newHarness(t, "text", 120, 24)
	h.submit("hello")
	h.feedStream()
	h.typeText("next question")
	h.send(tea.PasteMsg{Content: " and more"})
	if got := h.m.composer.Value(); got != "next question and more" {
		t.Fatalf("the draft is %q; keys typed while streaming were lost", got)
	}
	screen := h.m.View().Content
	if !strings.Contains(screen, "next question and more") || !strings.Contains(screen, "draft kept; Enter sends it once the reply ends") {
		t.Fatalf("the draft and what Enter does are not on screen:\n%s", screen)
	}
	h.send(keyEnter) // the label says Enter waits for the reply: the draft is queued
	if n := len(h.server.requests()); n != 1 || len(h.m.Chat().Queued()) != 1 {
		t.Fatalf("Enter while streaming sent the draft (%d requests) or dropped it (queued %q)", n, h.m.Chat().Queued())
	}
	h.expect("still streaming", writing())
	h.feedAll()
	sent := h.server.requests()
	if len(sent) != 2 || sent[1].Messages[len(sent[1].Messages)-1].Text() != "next question and more" {
		t.Fatalf("the reply's end must send the queued draft: %+v", sent)
	}
}

func TestAnEmptyComposerSaysTypingAheadWorks(t *testing.T) {
	h := newHarness(t, "text", 120, 24)
	h.submit("hello")
	if !strings.Contains(h.m.View().Content, "Message — type ahead; Enter sends once the reply ends") {
		t.Fatalf("the label does not say what typing does:\n%s", h.m.View().Content)
	}
}
