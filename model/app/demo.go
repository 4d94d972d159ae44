package app

import (
	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/view"
)

// demoNotice is said at the start of a session on the built-in demo.
const demoNotice = "This is the built-in demo: no API key or endpoint is set, so a scripted model answers. " +
	"Export OPENAI_API_KEY, or pass --base-url, to talk to a real model."

// Notice is what a session says as it starts: that it is on the built-in demo, then what the
// conversation continued.
func (sess *Session) Notice() string {
	return withDemoNotice(sess.Settings.Demo, sess.Conversation.Notice())
}

// withDemoNotice puts demoNotice before notice when the session is on the built-in demo.
func withDemoNotice(demo bool, notice string) string {
	switch {
	case !demo:
		return notice
	case notice == "":
		return demoNotice
	}
	return demoNotice + "\n" + notice
}

// Tries are the prompts the first screen suggests: the demo's; none on a real model.
func (sess *Session) Tries() []view.Try {
	if !sess.Settings.Demo {
		return nil
	}
	tries := make([]view.Try, 0, len(fixtures.DemoTries))
	for _, t := range fixtures.DemoTries {
		tries = append(tries, view.Try{Prompt: t.Prompt, Shows: t.Shows})
	}
	return tries
}
