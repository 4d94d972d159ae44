package safetest

import (
	"fmt"

	"github.com/phasechat/phasechat/view/safe"
)

// CheckClean reports where s holds something safe.Text would replace (an escape, a control, a
// bidi or invisible character, invalid UTF-8): a byte that reached the output unsanitised.
// It is nil exactly when safe.Text(s) == s. (A variable, like internal/testwait's helpers:
// deadcode reports a named function the program cannot reach, and only tests call this.)
var CheckClean = func(s string) error {
	clean := safe.Text(s)
	if clean == s {
		return nil
	}
	i := 0
	for i < len(s) && i < len(clean) && s[i] == clean[i] {
		i++
	}
	return fmt.Errorf("unsafe text at byte %d, near %q", i, s[max(0, i-16):min(len(s), i+17)])
}
