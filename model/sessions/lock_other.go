//go:build !unix

package sessions

import (
	"os"
	"sync"

	"github.com/phasechat/phasechat/internal/safefile"
)

// openLockFile opens (creating, 0600) a lock file the way safefile writes: never through a link,
// never a special file or one with other hard links (a holder is written into it).
func openLockFile(path string) (*os.File, error) {
	return safefile.OpenWrite(path)
}

// held is the lock files this process holds: without flock, a conversation is held against
// this process only.
var held struct {
	sync.Mutex
	files map[*os.File]string
}

// tryLock holds f's path against this process's other holds.
func tryLock(f *os.File) (bool, error) {
	held.Lock()
	defer held.Unlock()
	for g, name := range held.files {
		if name == f.Name() && g != f {
			return false, nil
		}
	}
	if held.files == nil {
		held.files = map[*os.File]string{}
	}
	held.files[f] = f.Name()
	return true, nil
}

// dropLock forgets f's hold.
func dropLock(f *os.File) {
	held.Lock()
	defer held.Unlock()
	delete(held.files, f)
}
