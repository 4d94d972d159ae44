package stream

import (
	"fmt"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// callOrderError (as in package wire's tests) returns a description of the first CallEvent that breaks the machine's
// order: per id, one start first, deltas only while open, at most one ready or error, nothing
// after it.
func callOrderError(ups ...wire.Update) error {
	state := map[string]string{} // "" unseen, "open", "final"
	for _, u := range ups {
		for _, c := range u.Calls {
			switch s := state[c.ID]; {
			case c.Type == phase.CallStart && s == "":
				state[c.ID] = "open"
			case c.Type == phase.CallDelta && s == "open":
			case (c.Type == phase.CallReady || c.Type == phase.CallInterrupt) && s == "open":
				state[c.ID] = "final"
			default:
				return fmt.Errorf("frame %d: %s for %q while %q", u.N, c.Type, c.ID, s)
			}
		}
	}
	return nil
}
