package linemode

import (
	"fmt"

	"github.com/phasechat/phasechat/view/safe"
)

// checkClean reports where s holds something safe.Text would replace (an escape, a control, a
// bidi or invisible character, invalid UTF-8): such a byte reached the output unsanitised.
func checkClean(s string) error {
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
