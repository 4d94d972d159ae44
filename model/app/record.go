package app

import (
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/stream/wire"
)

// redactingRecorder hides the secrets in a record before passing it on. A reply's streamed
// text is redacted as a stream (see secret.Stream), so a secret split across two records is
// hidden too: the tail that may start one is passed on with the next record.
type redactingRecorder struct {
	secrets *secret.Set
	next    perform.Recorder
	text    *streamedText
}

// streamedText is the streamed text of one kind being redacted.
type streamedText struct {
	what   chat.LiveWhat
	stream *secret.Stream
}

func newRedactingRecorder(s *secret.Set, next perform.Recorder) redactingRecorder {
	return redactingRecorder{secrets: s, next: next, text: &streamedText{}}
}

func (r redactingRecorder) Add(rec chat.Record) {
	if r.secrets.Empty() {
		r.next.Add(rec)
		return
	}
	if l := rec.Live; l != nil && l.What.Streamed() {
		if r.text.what != l.What {
			r.endText()
			r.text.what, r.text.stream = l.What, r.secrets.Stream()
		}
		if safe := r.text.stream.Write(l.Text); safe != "" {
			r.next.Add(chat.Record{Live: &chat.Live{What: l.What, Text: safe}})
		}
		return
	}
	r.endText()
	switch {
	case rec.Message != nil:
		m := wire.RedactMessage(r.secrets, *rec.Message)
		rec.Message = &m
	case rec.Live != nil:
		l := *rec.Live
		l.Text, l.Args, l.End.Note = r.secrets.Redact(l.Text), r.secrets.Redact(l.Args), r.secrets.Redact(l.End.Note)
		rec.Live = &l
	case rec.Compaction != nil:
		cp := *rec.Compaction
		cp.Summary = r.secrets.Redact(cp.Summary)
		rec.Compaction = &cp
	}
	r.next.Add(rec)
}

// endText passes on the tail of the streamed text kept back, the text being over.
func (r redactingRecorder) endText() {
	if r.text.stream != nil {
		if tail := r.text.stream.Flush(); tail != "" {
			r.next.Add(chat.Record{Live: &chat.Live{What: r.text.what, Text: tail}})
		}
	}
	*r.text = streamedText{}
}

// Sync syncs the recorder it passes records on to, when that one can.
func (r redactingRecorder) Sync() error { return syncOf(r.next) }

type multiRecorder []perform.Recorder

func (m multiRecorder) Add(r chat.Record) {
	for _, rec := range m {
		rec.Add(r)
	}
}

// Sync syncs each recorder that can, and returns the first error.
func (m multiRecorder) Sync() error {
	var first error
	for _, rec := range m {
		if err := syncOf(rec); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func syncOf(r perform.Recorder) error {
	if s, ok := r.(perform.Syncer); ok {
		return s.Sync()
	}
	return nil
}
