package sessionlog

import (
	"sync"
	"time"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
)

// partEvery is the longest streamed text waits before it is queued to be written: what a
// crash (or a power cut) can lose of a reply streaming at the time.
const partEvery = 250 * time.Millisecond

// partMost is the most streamed text gathered before it is queued, however little time it
// took to arrive: the part's buffer, and its record's encoding, follow it and not the reply.
const partMost = 64 << 10

// streamedPart is streamed text of one kind (chat.LiveText or chat.LiveReasoning) gathered since it
// was last queued, with the secrets hidden: redact holds back what may be the start of a
// secret the next text completes.
type streamedPart struct {
	what   chat.LiveWhat
	text   []byte
	redact *secret.Stream // nil when there are no secrets to hide
}

func newWriter(f logFile) *Writer {
	w := &Writer{f: f, wake: make(chan struct{}, 1), done: make(chan struct{})}
	w.progress = sync.NewCond(&w.mu)
	go w.loop()
	return w
}

// addText gathers streamed text; text of the other kind first queues what was gathered.
func (w *Writer) addText(what chat.LiveWhat, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut || w.stopped {
		return
	}
	if w.part.what != what {
		w.endPart()
		w.part.what = what
	}
	if w.part.redact == nil && !w.secrets.Empty() {
		w.part.redact = w.secrets.Stream()
	}
	if w.part.redact != nil {
		text = w.part.redact.Write(text)
	}
	w.part.text = append(w.part.text, text...)
	if len(w.part.text) >= partMost {
		w.queuePart()
		return
	}
	if w.partDue == nil {
		w.partDue = time.AfterFunc(partEvery, w.partWaited)
	}
}

// partWaited queues the part gathered so far: it has waited partEvery. Text the redaction
// holds back stays, to be queued with the rest of the part.
func (w *Writer) partWaited() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partDue = nil
	if !w.shut && !w.stopped {
		w.queuePart()
	}
}

// queuePart queues the part gathered so far, if any, and keeps its buffer for the next unless
// a long delta grew it past partMost. mu is held.
func (w *Writer) queuePart() {
	if len(w.part.text) == 0 {
		return
	}
	w.enqueue(Record{Type: "live", Live: &liveRecord{What: w.part.what, Text: string(w.part.text)}}, false, nil)
	if cap(w.part.text) > partMost {
		w.part.text = nil
	}
	w.part.text = w.part.text[:0]
}

// endPart queues all of the part gathered so far, the part is over. mu is held.
func (w *Writer) endPart() {
	if w.part.redact != nil {
		w.part.text = append(w.part.text, w.part.redact.Flush()...)
	}
	if len(w.part.text) > 0 {
		w.enqueue(Record{Type: "live", Live: &liveRecord{What: w.part.what, Text: string(w.part.text)}}, false, nil)
	}
	w.dropPart()
}

// dropPart forgets the part gathered so far without queueing it. mu is held.
func (w *Writer) dropPart() {
	if w.partDue != nil {
		w.partDue.Stop()
		w.partDue = nil
	}
	w.part = streamedPart{text: w.part.text[:0]}
}

// Sync returns once every record added before it is written and on disk (fdatasync): the log
// then holds what happened up to here even if the power fails. It returns early, with the
// error, when writing fails, or when the writer is closed.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut || w.stopped {
		return w.err
	}
	w.endPart()
	target := w.queued
	if w.synced >= target {
		return nil
	}
	w.syncTo = max(w.syncTo, target)
	select {
	case w.wake <- struct{}{}:
	default:
	}
	for w.synced < target && !w.failing && !w.shut && !w.stopped {
		w.progress.Wait()
	}
	if w.synced < target {
		return w.err
	}
	return nil
}
