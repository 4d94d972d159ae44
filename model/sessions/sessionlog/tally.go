package sessionlog

import (
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// tallying gathers, while a log is read, what each turn used (Log.Tallies): the usage records
// up to the turn's last reply (a summary's, after it, is no turn's), from its user message's
// time to that reply's. A turn whose last reply did not end whole or cut off (stopped, failed,
// crashed) gets none, as live.
type tallying struct {
	said    int // user and assistant messages of Log.Messages counted so far
	counted int // the messages of Log.Messages looked at for said

	began   time.Time // the turn's user message's time; zero when not known
	reply   int       // Log.Messages index of the turn's last reply; -1 none
	replyAt time.Time
	place   int // the reply's place among the user and assistant messages
	usage   wire.Usage
	pending wire.Usage // reported since the last reply
}

func newTallying() tallying { return tallying{reply: -1} }

// count brings said up to the end of log.Messages.
func (t *tallying) count(log *Log) {
	for ; t.counted < len(log.Messages); t.counted++ {
		if r := log.Messages[t.counted].Role; r == "user" || r == "assistant" {
			t.said++
		}
	}
}

// user begins a turn at the user message just appended to log, written at.
func (t *tallying) turnBegan(log *Log, at *time.Time) {
	t.end(log)
	t.count(log)
	*t = tallying{said: t.said, counted: t.counted, began: timeOf(at), reply: -1}
}

// reply notes the assistant message just appended to log, written at.
func (t *tallying) replied(log *Log, at *time.Time) {
	t.count(log)
	t.reply, t.replyAt, t.place = len(log.Messages)-1, timeOf(at), t.said-1
	t.usage = t.usage.Add(t.pending)
	t.pending = wire.Usage{}
}

// reported adds a usage record.
func (t *tallying) reported(u wire.Usage) { t.pending = t.pending.Add(u) }

// broken notes that the turn's request in flight landed unfinished: the turn has no tally.
func (t *tallying) broken() { t.reply = -1 }

// end adds the turn's tally to log, if it has one.
func (t *tallying) end(log *Log) {
	if t.reply < 0 || t.reply >= len(log.Messages) {
		return
	}
	if why := log.Messages[t.reply].End.Why; why != "" && why != phase.EndCutOff {
		return
	}
	tally := chat.SavedTally{Reply: t.place, Usage: t.usage}
	if t.reply < len(log.MessageModels) {
		tally.Model = log.MessageModels[t.reply]
	}
	if !t.began.IsZero() && !t.replyAt.IsZero() {
		tally.Took = max(0, t.replyAt.Sub(t.began))
	}
	log.Tallies = append(log.Tallies, tally)
	t.reply = -1
}

// timeOf is *at, or the zero time when at is nil.
func timeOf(at *time.Time) time.Time {
	if at == nil {
		return time.Time{}
	}
	return *at
}
