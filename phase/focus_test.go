package phase

import "testing"

// FocusFor, for every phase, with and without the move to the composer.
func TestFocusFor(t *testing.T) {
	for _, tc := range []struct {
		p          Phase
		toComposer bool
		want       Focus
	}{
		{Idle, false, FocusComposer}, {Idle, true, FocusComposer},
		{StreamingText, false, FocusStop}, {StreamingText, true, FocusStop},
		{StreamingTool, false, FocusStop}, {StreamingTool, true, FocusStop},
		{Error, false, FocusRetry}, {Error, true, FocusComposer},
		{Complete, false, FocusComposer}, {Complete, true, FocusComposer},
	} {
		if got := FocusFor(tc.p, tc.toComposer); got != tc.want {
			t.Errorf("FocusFor(%s, %v) = %s, want %s", tc.p, tc.toComposer, got, tc.want)
		}
	}
}
