package sessions

import (
	"errors"
	"fmt"
)

// entryUpdater brings a session's index entry up to date on a goroutine of its own, so that
// the log's goroutine never waits for the index's lock: a finished message is on disk at once
// even while another process holds that lock (a phasechat stopped with Ctrl+Z mid-update).
// Updates asked for while one runs are taken together by the next: each takes every count
// made until it starts.
type entryUpdater struct {
	due  chan struct{} // holds one token while an update is asked for and not started
	quit chan struct{}
	done chan struct{}
}

// askRefresh has the updater bring the entry up to date, without waiting for it; it runs in
// the log's order, which starts the updater the first time.
func (ss *Session) askRefresh() {
	if ss.updater == nil {
		ss.updater = &entryUpdater{due: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
		go ss.updater.run(ss)
	}
	select {
	case ss.updater.due <- struct{}{}:
	default: // one is asked for already, and takes what was counted since
	}
}

func (u *entryUpdater) run(ss *Session) {
	defer close(u.done)
	for {
		select {
		case <-u.quit:
			return
		case <-u.due:
			ss.tellEntry(ss.refresh())
		}
	}
}

// stop ends the updater once the update it runs (bounded by the index's lock wait) is done;
// one asked for and not started is left to the caller's own. A nil updater was never started.
func (u *entryUpdater) stop() {
	if u == nil {
		return
	}
	close(u.quit)
	<-u.done
}

// tellEntry tells the function given to OnError of the first update of the entry given up;
// what it counted waits for the next update, so nothing is lost.
func (ss *Session) tellEntry(err error) {
	if err == nil {
		return
	}
	ss.entryMu.Lock()
	report := ss.onError
	if ss.toldEntry || report == nil {
		report = nil
	} else {
		ss.toldEntry = true
	}
	ss.entryMu.Unlock()
	if report == nil {
		return
	}
	advice := "tried again with the next reply"
	if errors.Is(err, ErrLocked) {
		advice = "another phasechat holds the sessions index (one stopped with Ctrl+Z? bring it back with fg); tried again with the next reply"
	}
	report(fmt.Errorf("the conversation is saved in its log, but its entry in the sessions list is behind (%s): %w", advice, err))
}
