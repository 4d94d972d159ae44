package view

import (
	"strconv"
	"time"

	"github.com/phasechat/phasechat/internal/format"
)

// counterNote is what the status line adds while a turn runs: its time so far and its
// tokens, "~" marking a count estimated from the bytes streamed ("   12s · ~340 tokens").
func counterNote(t Timing) string {
	if t.Elapsed < time.Second {
		return ""
	}
	s := "   " + strconv.Itoa(int(t.Elapsed/time.Second)) + "s"
	if t.Tokens > 0 {
		approx := ""
		if t.Estimated {
			approx = "~"
		}
		s += " · " + approx + format.Thousands(t.Tokens) + " " + format.Plural(t.Tokens, "token", "tokens")
	}
	return s
}
