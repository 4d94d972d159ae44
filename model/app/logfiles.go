package app

import (
	"sync"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
)

// logFile is the --log file: its lines, and the attachments' bytes in the folder beside it
// (sessions.FilesBeside), each kept before the line naming it is queued. Keeping a file is
// I/O, so Add only queues: records with files, and every record after one until the files
// are kept, go through a goroutine in order.
type logFile struct {
	*sessionlog.Writer
	dir string

	mu      sync.Mutex
	todo    []func()
	busy    bool
	drained sync.WaitGroup
	onError func(error)
}

func newLogFile(w *sessionlog.Writer, path string) *logFile {
	return &logFile{Writer: w, dir: sessions.FilesBeside(path)}
}

// Add queues r, after keeping the bytes of its attachments beside the log.
func (l *logFile) Add(r chat.Record) {
	if r.Message == nil || len(r.Message.Attachments) == 0 {
		l.inOrder(func() { l.Writer.Add(r) }, false)
		return
	}
	l.inOrder(func() {
		if err := sessions.KeepFiles(l.dir, r); err != nil {
			l.mu.Lock()
			f := l.onError
			l.mu.Unlock()
			if f != nil {
				f(err)
			}
		}
		l.Writer.Add(r)
	}, true)
}

// Head queues a header, after the records queued before it.
func (l *logFile) Head(h sessionlog.Header) { l.inOrder(func() { l.Writer.Head(h) }, false) }

// OnError has f told of each failed write of the log or of a file beside it.
func (l *logFile) OnError(f func(error)) {
	l.mu.Lock()
	l.onError = f
	l.mu.Unlock()
	l.Writer.OnError(f)
}

// Sync returns once every record added so far is on disk.
func (l *logFile) Sync() error {
	l.drained.Wait()
	return l.Writer.Sync()
}

// Close writes what is queued and closes the log.
func (l *logFile) Close() error {
	l.drained.Wait()
	return l.Writer.Close()
}

// inOrder runs do now when nothing waits and it does no I/O (slow), else after what waits,
// in a goroutine.
func (l *logFile) inOrder(do func(), slow bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.busy && !slow {
		do()
		return
	}
	l.todo = append(l.todo, do)
	if !l.busy {
		l.busy = true
		l.drained.Add(1)
		go l.drain()
	}
}

func (l *logFile) drain() {
	defer l.drained.Done()
	for {
		l.mu.Lock()
		if len(l.todo) == 0 {
			l.busy = false
			l.mu.Unlock()
			return
		}
		do := l.todo[0]
		l.todo = l.todo[1:]
		l.mu.Unlock()
		do()
	}
}
