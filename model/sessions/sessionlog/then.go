package sessionlog

// Then has f run on the writer's goroutine once every record added before it is written, and
// on disk if one of them is due to be (a message, or a record Sync waits for), and before any
// record added after it is written: f may tell others of what the log holds. While writing
// fails, f waits with those records; Then on a writer closed or stopped does nothing.
func (w *Writer) Then(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut || w.stopped {
		return
	}
	w.endPart()
	w.todo = append(w.todo, pendingLine{then: f})
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// stop ends the writing of a log Later could not open: what is queued is dropped, and so is
// what is added from now on; err is the writer's error, and the function given to OnError is
// told.
func (w *Writer) stop(err error) {
	w.mu.Lock()
	w.stopped = true
	w.todo = nil
	w.dropPart()
	if w.err == nil {
		w.err = err
	}
	w.progress.Broadcast()
	report := w.onError
	w.mu.Unlock()
	if report != nil {
		report(err)
	}
}
