package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/stream/wire"
)

// Check says which flag holds a value no setting can take, in the words of the command line.
func (f Flags) Check() error {
	switch {
	case f.MaxReplyMiB < 1:
		return fmt.Errorf("--max-reply must be at least 1 (MiB), got %d", f.MaxReplyMiB)
	case f.MaxTools < 1:
		return fmt.Errorf("--max-tools must be at least 1 (how many tools run at once), got %d", f.MaxTools)
	case f.MaxSteps < 1:
		return fmt.Errorf("--max-steps must be at least 1 (it counts the requests of one turn), got %d", f.MaxSteps)
	case !slices.Contains(config.Themes, f.Theme):
		return fmt.Errorf("--theme must be one of %s, got %q", strings.Join(config.Themes, ", "), f.Theme)
	case f.Continue && f.Resume != "":
		return errors.New("--continue and --resume both choose the conversation; give one of them")
	case f.Fork && !f.Continue && f.Resume == "":
		return errors.New("--fork continues a saved conversation in a copy: give --continue or --resume ID with it")
	case f.StallTimeout < 0:
		return fmt.Errorf("--stall-timeout cannot be negative (0 turns the watchdog off), got %s", f.StallTimeout)
	}
	if _, err := wire.ParseWire(f.Wire); err != nil {
		return fmt.Errorf("--wire: %w", err)
	}
	return nil
}
