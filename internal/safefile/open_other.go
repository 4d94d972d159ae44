//go:build !unix

package safefile

import "io/fs"

// readFlags and writeFlags are empty here: the type checks before and after the open are what
// refuse special files and links.
const (
	readFlags  = 0
	writeFlags = 0
)

// links is not known here; every file counts as having one name.
func links(fs.FileInfo) uint64 { return 1 }
