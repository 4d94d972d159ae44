package safe_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/phasechat/phasechat/view/safe"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

func TestHostileInputsTable(t *testing.T) {
	inputs := safetest.HostileInputs
	if len(inputs) < 24 {
		t.Fatalf("%d hostile inputs, want at least 24", len(inputs))
	}
	names := map[string]bool{}
	for _, h := range inputs {
		if h.Name == "" || names[h.Name] {
			t.Errorf("hostile input name %q is empty or repeated", h.Name)
		}
		names[h.Name] = true
		if h.Visible == "" || utf8.RuneCountInString(h.Visible) > 24 || strings.ContainsAny(h.Visible, " \n\t") {
			t.Errorf("%s: Visible %q must be 1–24 runes without space, newline or tab", h.Name, h.Visible)
		}
		if h.Deltas != nil && strings.Join(h.Deltas, "") != h.Input {
			t.Errorf("%s: Deltas %q do not join to Input %q", h.Name, h.Deltas, h.Input)
		}
		if CheckClean(h.Input) != nil && strings.Contains(h.Input, h.Visible) {
			t.Errorf("%s: Visible %q is already in the raw Input, so it proves nothing", h.Name, h.Visible)
		}
	}
}

func TestHostileInputsAreNeutralised(t *testing.T) {
	for _, h := range safetest.HostileInputs {
		t.Run(h.Name, func(t *testing.T) {
			deltas := h.Deltas
			if deltas == nil {
				deltas = bytesOf(h.Input)
			}
			var s Stream
			for _, d := range deltas {
				s.Append(d)
			}
			for channel, out := range map[string]string{
				"Text": Text(h.Input), "Line": Line(h.Input), "Stream": s.Finish(),
			} {
				if err := CheckClean(out); err != nil {
					t.Errorf("%s: %v", channel, err)
				}
				if !strings.Contains(out, h.Visible) {
					t.Errorf("%s(%q) = %q, lacks visible %q", channel, h.Input, out, h.Visible)
				}
			}
		})
	}
}
