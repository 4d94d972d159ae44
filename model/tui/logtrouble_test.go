package tui

import (
	"errors"
	"strings"
	"testing"
)

// A failed log write shows at once: a notice in the transcript and a warning in the footer,
// until a later write succeeds.
func TestALogFailureIsShownAtOnce(t *testing.T) {
	h := newHarness(t, "text", 100, 24)
	h.send(LogTroubleMsg{Err: errors.New("cannot write the session log (2 records held, tried again with the next write): no space left on device")})
	screen := h.m.View().Content
	if !strings.Contains(screen, "Cannot write the session log (2 records held") || !strings.Contains(screen, "! log not saved") {
		t.Fatalf("the failure is not on the screen:\n%s", screen)
	}
	h.send(LogTroubleMsg{Err: errors.New("cannot write the session log (3 records held …): no space left on device")})
	if n := strings.Count(h.m.View().Content, "Cannot write the session log"); n != 1 {
		t.Fatalf("%d notices for one run of failures", n)
	}
	h.send(LogTroubleMsg{})
	screen = h.m.View().Content
	if strings.Contains(screen, "! log not saved") || !strings.Contains(screen, "written again") {
		t.Fatalf("the recovery is not on the screen:\n%s", screen)
	}
}
