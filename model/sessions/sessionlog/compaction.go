package sessionlog

import "github.com/phasechat/phasechat/model/chat"

// loggedCompaction is a compaction as a log line holds it:
// {"type":"compaction","compaction":{"summary":…,"turns":N}}. It is written, and synced,
// before the compaction takes effect; a log without one sends every turn.
type loggedCompaction struct {
	Summary string `json:"summary"`
	Turns   int    `json:"turns"`
}

func loggedCompactionOf(c *chat.Compaction) *loggedCompaction {
	if c == nil {
		return nil
	}
	return &loggedCompaction{Summary: c.Summary, Turns: c.Turns}
}

func (l *loggedCompaction) compaction() *chat.Compaction {
	if l == nil {
		return nil
	}
	return &chat.Compaction{Summary: l.Summary, Turns: l.Turns}
}

// compactionRecord is the record of c (its summary is one string: the line's redaction hides
// its secrets).
func compactionRecord(c chat.Compaction) Record { return Record{Type: "compaction", Compaction: &c} }
