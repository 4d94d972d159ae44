//go:build !unix

package sessions

import "sync"

var indexMu sync.Mutex

// lock serialises index updates within this process only: without flock, two processes
// updating the index at the same moment may lose one update (the index itself is still
// replaced whole, never half-written).
func lock(string) (func(), error) {
	indexMu.Lock()
	return indexMu.Unlock, nil
}
