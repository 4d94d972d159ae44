package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestErrorFitsTheWindow: in a small window the error's status keeps its own message and a
// way to retry. The key hint takes its short form first, the message wraps to at most three
// rows, and the transcript gives way before the status line does. Before, at 40×24 the
// message was elided to "…", at 60×10 the hint was cut, at 30×8 the status text was gone.
func TestErrorFitsTheWindow(t *testing.T) {
	const message = "The server sent an error: The server had an error while processing your request. Sorry about that!"
	for _, sc := range []struct {
		width, height int
		whole         bool // the whole message fits in three rows at this width
	}{{40, 24, true}, {60, 10, true}, {30, 8, false}} {
		t.Run(fmt.Sprintf("%dx%d", sc.width, sc.height), func(t *testing.T) {
			h := newHarness(t, "error-frame", sc.width, sc.height)
			h.submit("hello")
			h.feedAll()
			content := h.m.View().Content
			rows := strings.Split(content, "\n")
			status, ctl := -1, -1
			for i, row := range rows {
				if status < 0 && strings.HasPrefix(row, "The server sent an error") {
					status = i
				}
				if strings.Contains(row, "[ Retry · Enter ]") {
					ctl = i
				}
			}
			if status < 0 || ctl < status || ctl-status > 3 {
				t.Fatalf("the status line and its Retry control are not on screen:\n%s", content)
			}
			text := strings.Join(strings.Fields(strings.Join(rows[status:ctl+1], " ")), " ")
			if !strings.Contains(text, "Enter retries.") {
				t.Fatalf("the status says no key that retries: %q", text)
			}
			if sc.whole && !strings.Contains(text, message) {
				t.Fatalf("the message is cut though it fits three rows: %q", text)
			}
			golden.RequireEqual(t, []byte(content))
		})
	}
}
