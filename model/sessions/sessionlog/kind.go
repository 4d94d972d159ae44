package sessionlog

import "github.com/phasechat/phasechat/model/chat"

// lineKind is what a record is to the log's readers, decided once (kindOf) for both: the
// reader (decode) acts on it, and the fold (passedOver) takes out what the reader passes over
// of the live records: a request's are passed over when its final reply, a later request or a
// new conversation comes, and read when a user message, a compaction or the end of the log
// comes.
type lineKind uint8

const (
	lineUsage      lineKind = iota // a usage record: a valid record that is none of the others
	lineBegin                      // a live record that begins a request
	lineLive                       // any other live record but streamed text
	lineLiveText                   // a live record of streamed text or reasoning
	lineFinal                      // an assistant message: the final reply
	lineUser                       // a user message
	lineMessage                    // a message of any other role (a tool's result)
	lineNew                        // a header that begins another conversation
	lineHeader                     // any other header
	lineCompaction                 // a compaction
)

// kindOf classifies a valid record (see Record.valid). A record holding more than one thing
// (only a hand-written line can) is the first of: live, assistant or user message,
// header, other message, compaction, usage.
func kindOf(rec *Record) lineKind {
	switch {
	case rec.Live != nil && rec.Live.What == chat.LiveBegin:
		return lineBegin
	case rec.Live != nil && rec.Live.What.Streamed():
		return lineLiveText
	case rec.Live != nil:
		return lineLive
	case rec.Message != nil && rec.Message.Role == "assistant":
		return lineFinal
	case rec.Message != nil && rec.Message.Role == "user":
		return lineUser
	case rec.Session != nil && rec.Session.New:
		return lineNew
	case rec.Session != nil:
		return lineHeader
	case rec.Message != nil:
		return lineMessage
	case rec.Compaction != nil:
		return lineCompaction
	}
	return lineUsage
}
