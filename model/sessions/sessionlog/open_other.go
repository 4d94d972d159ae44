//go:build !unix

package sessionlog

// noFollow is not available here; the file type check after the open still refuses anything
// but a regular file.
const noFollow = 0
