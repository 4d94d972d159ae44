package app

import (
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/stream/wire"
)

// redactingRecorder hides the secrets in a record before passing it on.
type redactingRecorder struct {
	secrets *secret.Set
	next    perform.Recorder
}

func (r redactingRecorder) Add(rec chat.Record) {
	if rec.Message != nil && !r.secrets.Empty() {
		m := wire.RedactMessage(r.secrets, *rec.Message)
		rec.Message = &m
	}
	r.next.Add(rec)
}

type multiRecorder []perform.Recorder

func (m multiRecorder) Add(r chat.Record) {
	for _, rec := range m {
		rec.Add(r)
	}
}
