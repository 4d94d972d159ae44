package view

import (
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// reduce folds events into a fresh state, as the model does.
func reduce(evs ...phase.Event) phase.State {
	var s phase.State
	for _, ev := range evs {
		s = phase.Reduce(s, ev)
	}
	return s
}

var (
	submit = phase.Event{Kind: phase.KindSubmit}
	text   = phase.Event{Kind: phase.KindText, Delta: "The README"}
)

const (
	question  = "What does the README say, and which files does it mention?"
	authError = "HTTP 401 from api.openai.com: Incorrect API key provided"
	fullReply = "The README describes **phasechat**, a terminal chat client for " +
		"OpenAI-compatible streaming APIs.\n\n" +
		"## Packages\n\n- `phase`: the pure core\n- `stream`: the wire\n- `view`: rendering\n\n" +
		"Run it with `go run .` — the demo model answers without a key."
)

// scene is one golden screen: a phase with a transcript that fits it.
type scene struct {
	name   string
	frame  func() Frame
	cursor string // what the cursor must sit on: "stop", "retry" or "composer"
}

func sceneFrame(st phase.State, focus phase.Focus, entries []*draft, help []Key) Frame {
	ctl := phase.ControlsFor(st.Phase)
	f := Frame{Height: 24, Entries: published(entries), State: st, Focus: focus, Help: help,
		Composer: "┃ \n┃\n┃", ComposerCursorX: 2, ComposerCursor: focus == phase.FocusComposer && ctl.Composer,
		Footer: Footer{Endpoint: "https://api.openai.com/v1", Model: "gpt-4o-mini",
			Turn: Usage{Prompt: 1200, Completion: 345}, Session: Usage{Prompt: 9100, Completion: 2048}}}
	return f
}

var (
	streamingKeys = []Key{{Keys: "esc", Does: "stop"}, {Keys: "pgup/pgdn", Does: "scroll"}, {Keys: "ctrl+c", Does: "quit"}}
	idleKeys      = []Key{{Keys: "enter", Does: "send"}, {Keys: "alt+enter", Does: "newline"}, {Keys: "ctrl+r", Does: "regenerate"}, {Keys: "pgup/pgdn", Does: "scroll"}, {Keys: "ctrl+c", Does: "quit"}}
	askKeys       = []Key{{Keys: "y", Does: "run"}, {Keys: "n", Does: "decline"}, {Keys: "A", Does: "always"}, {Keys: "esc", Does: "stop"}}
	errorKeys     = []Key{{Keys: "enter", Does: "retry"}, {Keys: "tab", Does: "composer"}, {Keys: "ctrl+c", Does: "quit"}}
)

func user() *draft { return &draft{Role: transcript.RoleUser, Text: question} }

var scenes = []scene{
	{"idle", func() Frame {
		f := sceneFrame(phase.State{}, phase.FocusComposer, []*draft{
			{Role: transcript.RoleNotice, Text: "phasechat — the built-in demo model answers. Tools run after you allow them."},
		}, idleKeys)
		f.Composer, f.ComposerCursorX = "┃ Summarise the README\n┃\n┃", 22
		f.Footer = Footer{Demo: true, Model: "demo"}
		return f
	}, "composer"},
	{"streaming-text", func() Frame {
		return sceneFrame(reduce(submit, text), phase.FocusStop, []*draft{user(), {
			Role: transcript.RoleAssistant, Streaming: true,
			Reasoning: "The user wants a summary.\nI should read README.md before answering.",
			Text:      "The README describes **phasechat**, a terminal chat client.\n\nIt is split into five packa",
		}}, streamingKeys)
	}, "stop"},
	{"streaming-tool", func() Frame {
		return sceneFrame(reduce(submit, phase.Event{Kind: phase.KindTool, Tool: "read_file"}), phase.FocusStop, []*draft{user(), {
			Role: transcript.RoleAssistant, Streaming: true, Text: "Let me look at the files.",
			Cards: []draftCard{
				{ID: "call_0", Name: "read_file", Status: phase.CallRunning, Summary: "path=README.md"},
				{ID: "call_1", Name: "list_dir", Status: phase.CallPending, ArgsBytes: 1260},
			},
		}}, streamingKeys)
	}, "stop"},
	{"streaming-tool-asking", func() Frame {
		st := reduce(submit, phase.Event{Kind: phase.KindAsk, Tool: "write_file", Delta: "path=notes.txt"})
		return sceneFrame(st, phase.FocusStop, []*draft{user(), {
			Role: transcript.RoleAssistant, Streaming: true, Text: "I will save the summary.",
			Cards: []draftCard{
				{ID: "call_0", Name: "read_file", Status: phase.CallDone, Summary: "path=README.md",
					Result: "# phasechat\n\nA terminal chat client.\n", Duration: 4 * time.Millisecond},
				{ID: "call_1", Name: "write_file", Status: phase.CallRunning, Summary: "path=notes.txt",
					Args: `{"path":"notes.txt","content":"phasechat: a terminal chat client"}`, Asking: true},
			},
		}}, askKeys)
	}, "stop"},
	{"error", func() Frame {
		st := reduce(submit, text, phase.Event{Kind: phase.KindError, Error: authError})
		return sceneFrame(st, phase.FocusRetry, []*draft{user(), {
			Role: transcript.RoleAssistant, Text: "The README", Mark: transcript.MarkFailed, Note: authError,
		}}, errorKeys)
	}, "retry"},
	{"error-composer-focused", func() Frame {
		st := reduce(submit, text, phase.Event{Kind: phase.KindError, Error: authError})
		f := sceneFrame(st, phase.FocusComposer, []*draft{user(), {
			Role: transcript.RoleAssistant, Text: "The README", Mark: transcript.MarkFailed, Note: authError,
		}}, []Key{{Keys: "enter", Does: "send"}, {Keys: "tab", Does: "retry"}, {Keys: "ctrl+c", Does: "quit"}})
		f.Composer, f.ComposerCursorX = "┃ Try again\n┃\n┃", 11
		return f
	}, "composer"},
	{"complete", func() Frame {
		return sceneFrame(reduce(submit, text, phase.Event{Kind: phase.KindDone}), phase.FocusComposer, []*draft{user(), {
			Role: transcript.RoleAssistant, Text: fullReply, Reasoning: "Read the file, then summarise.",
			Cards: []draftCard{{ID: "call_0", Name: "read_file", Status: phase.CallDone, Summary: "path=README.md",
				Result: "# phasechat\n\nA terminal chat client.\n", Duration: 4 * time.Millisecond}},
		}}, idleKeys)
	}, "composer"},
	{"complete-after-stop", func() Frame {
		return sceneFrame(reduce(submit, text, phase.Event{Kind: phase.KindStop}), phase.FocusComposer, []*draft{user(), {
			Role: transcript.RoleAssistant, Text: "The README describes **phasechat**, a terminal", Mark: transcript.MarkStopped,
		}}, idleKeys)
	}, "composer"},
}
