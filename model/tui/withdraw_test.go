package tui

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
)

func TestEscBeforeTheFirstByteGivesThePromptBack(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.submit("hello there")
	if !h.m.chat.State.Phase.Streaming() {
		t.Fatalf("phase %s after Enter", h.m.chat.State.Phase)
	}
	h.typeText("and more")
	h.send(keyEsc)
	if got := h.m.composer.Value(); got != "hello there\nand more" {
		t.Errorf("composer %q: want the message back, before what was typed since", got)
	}
	if len(h.m.chat.History) != 0 || h.m.chat.State.Phase != phase.Idle {
		t.Errorf("history %d messages, phase %s: want none, idle", len(h.m.chat.History), h.m.chat.State.Phase)
	}
	h.feedAll()
	screen := h.m.View().Content
	if !strings.Contains(screen, chat.Withdrawn[:30]) || strings.Contains(screen, "› hello there") {
		t.Errorf("the screen:\n%s", screen)
	}
}

func TestEscAfterTheFirstByteStops(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.submit("hello")
	for !strings.Contains(h.m.chat.Entries()[len(h.m.chat.Entries())-1].Text(), "Hello") {
		h.feedStream()
	}
	h.send(keyEsc)
	if h.m.composer.Value() != "" || len(h.m.chat.History) != 2 || h.m.chat.State.Phase.Streaming() {
		t.Errorf("composer %q, %d messages, phase %s: want a stopped reply kept", h.m.composer.Value(), len(h.m.chat.History), h.m.chat.State.Phase)
	}
}
