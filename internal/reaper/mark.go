package reaper

import (
	"crypto/rand"
	"encoding/hex"
)

// MarkEnv is the variable that marks every process of one run: each run sets it to a value of
// its own, which the processes it starts inherit, so that the processes that left its process
// group and its process tree can be found by it.
const MarkEnv = "PHASECHAT_TOOL_RUN"

// NewMark is a fresh MarkEnv=value entry for one run.
func NewMark() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return MarkEnv + "=" + hex.EncodeToString(b[:]), nil
}
