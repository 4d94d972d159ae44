package tools

import (
	"context"
	"io"
	"strings"
	"time"
)

// Live output: while a command tool runs, its last lines can be watched (RunWatched). What the
// watcher gets is redacted and sanitised like the final result, bounded in size
// (watchKeep bytes) and in rate (one call per watchEvery at most).
const (
	watchKeep  = 2 << 10
	watchLines = 3
	watchEvery = 200 * time.Millisecond
)

// RunWatched is Run, and while a command tool runs, watch is called with its last few lines
// of output, cleaned as the result is, at most about five times a second. watch is called on
// the tool's output goroutine and must not block. Built-in and MCP tools are not watched.
func (r *Registry) RunWatched(ctx context.Context, call Call, watch func(lines string)) Result {
	return r.Run(context.WithValue(ctx, watchKey{}, watch), call)
}

type watchKey struct{}

// watcherFor is the writer that feeds ctx's watch, or nil when nobody watches.
func (r *Registry) watcherFor(ctx context.Context) io.Writer {
	watch, _ := ctx.Value(watchKey{}).(func(string))
	if watch == nil {
		return nil
	}
	return &tailWatch{watch: watch, clean: r.clean, now: time.Now}
}

// tailWatch keeps the last watchKeep bytes written and hands their last watchLines lines to
// watch, no more often than watchEvery. One goroutine writes to it.
type tailWatch struct {
	buf   []byte
	last  time.Time
	watch func(string)
	clean func(string) string
	now   func() time.Time
}

func (w *tailWatch) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - watchKeep; over > 0 {
		w.buf = append(w.buf[:0], trimPartialRuneStart(w.buf[over:])...)
	}
	if now := w.now(); now.Sub(w.last) >= watchEvery {
		w.last = now
		w.watch(w.clean(lastLines(string(w.buf), watchLines)))
	}
	return len(p), nil
}

// lastLines is the last n lines of s, a final newline not counting as a line of its own.
func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	at := len(s)
	for range n {
		i := strings.LastIndexByte(s[:at], '\n')
		if i < 0 {
			return s
		}
		at = i
	}
	return s[at+1:]
}
