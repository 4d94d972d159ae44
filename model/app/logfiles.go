package app

import (
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
)

// openLogFile opens the --log file for appending (sessionlog.Append). The bytes of the
// attachments its lines name are kept in the folder beside it (sessions.FilesBeside) by the
// writer, before the line naming them is written.
func openLogFile(path string) (*sessionlog.Writer, error) {
	w, err := sessionlog.Append(path)
	if err != nil {
		return nil, err
	}
	dir := sessions.FilesBeside(path)
	w.KeepFilesWith(func(r chat.Record) error { return sessions.KeepFiles(dir, r) })
	return w, nil
}
