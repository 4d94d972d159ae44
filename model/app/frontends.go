package app

import (
	"io"
	"os"

	"github.com/phasechat/phasechat/model/linemode"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/tui"
	"github.com/phasechat/phasechat/view/markdown"
)

// LineOptions are the line mode's options for the session: it reads in, writes out, and
// says notice after the session's own.
func (sess *Session) LineOptions(in *os.File, out io.Writer, notice string) linemode.Options {
	o := linemode.Options{
		Chat: sess.Chat, Performer: sess.Performer, Log: sess.Conversation.Recorder(),
		To: linemode.Destination{Endpoint: sess.Footer.Endpoint, Model: sess.Footer.Model,
			Demo: sess.Footer.Demo, Wire: sess.Footer.Wire},
		Notice: joinNotices(sess.Notice(), notice), In: in, Out: out, MCP: sess.MCP, Models: sess.Models,
		Clipboard: SystemClipboard(), CodeBlocks: markdown.CodeBlocks, LogTrouble: sess.LogTrouble(),
	}
	if sess.Conversation.Saving() {
		o.Conversations = sess.Conversation
	}
	if dir, err := os.Getwd(); err == nil {
		o.Files = FileReader{Dir: dir, Secrets: sess.Secrets, Wire: sess.Settings.Wire}
	}
	return o
}

// ScreenOptions are the full-screen chat's options for the session, saying notice after the
// conversation's. Its first screen says what the demo is and what to try, so the demo's
// notice is not said. The performer is paced to the screen's frames from then on.
func (sess *Session) ScreenOptions(notice string) tui.Options {
	s, conv := sess.Settings, sess.Conversation
	styles, stylesFor := s.Styles()
	o := tui.Options{Chat: sess.Chat, Performer: sess.Performer, Log: conv.Recorder(), Styles: styles, StylesFor: stylesFor,
		Measure: s.Measure, Footer: sess.Footer, Notice: joinNotices(conv.Notice(), notice), Models: sess.Models, MCP: sess.MCP,
		Inline: s.Inline, Try: sess.Tries(), Clipboard: SystemClipboard(), PasteImage: ClipboardImage()}
	if prompts, err := sessions.DefaultPrompts(); err == nil {
		prompts.Secrets = sess.Secrets
		o.History, _ = prompts.Load() // with --no-save Up still recalls, and nothing is added
		if !s.NoSave {
			o.Remember = prompts.Add
		}
	}
	if conv.Saving() {
		o.Conversations = conv
	}
	if dir, err := os.Getwd(); err == nil {
		o.Files = FileReader{Dir: dir, Secrets: sess.Secrets, Wire: sess.Settings.Wire}
	}
	sess.Performer.Frame = tui.FrameInterval
	return o
}

// LogTrouble carries each failed write of the --log file (and, nil, its recovery) as it
// happens; a front end too busy to take one gets the error when the session closes anyway.
func (sess *Session) LogTrouble() <-chan error {
	trouble := make(chan error, 64)
	sess.Conversation.OnLogTrouble(func(err error) {
		select {
		case trouble <- err:
		default:
		}
	})
	return trouble
}

func joinNotices(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
