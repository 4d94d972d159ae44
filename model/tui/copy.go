package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/markdown"
	"github.com/phasechat/phasechat/view/safe"
)

// copyReply copies the last reply (code nil) or a code block of it (*code 0: the last, N: the
// Nth) to the clipboard: through OSC 52, which the terminal (or tmux) honours, and through the
// system clipboard tool when there is one. Only a key or a command the user typed gets here;
// nothing a model sends can. The copy holds no terminal control (safe.Plain): pasted into a
// terminal it can neither end a bracketed paste nor run what follows; the note says how many
// were left out.
func (m *Model) copyReply(code *int) (*Model, tea.Cmd) {
	reply := lastReply(m.chat.Entries())
	if reply == nil || strings.TrimSpace(reply.Text()) == "" {
		m.warn("There is no reply to copy yet.")
		return m, nil
	}
	text, what := reply.Text(), "the last reply"
	if code != nil {
		blocks := markdown.CodeBlocks(reply.Text())
		n := *code
		switch {
		case len(blocks) == 0:
			m.warn("The last reply has no code block.")
			return m, nil
		case n > len(blocks):
			m.warn(fmt.Sprintf("The last reply has %d code %s.", len(blocks), format.Plural(len(blocks), "block", "blocks")))
			return m, nil
		case n == 0:
			n = len(blocks)
		}
		text, what = blocks[n-1], fmt.Sprintf("code block %d of %d", n, len(blocks))
	}
	text, removed := safe.Plain(text)
	note := fmt.Sprintf("Copied %s (%d %s", what, utf8.RuneCountInString(text), format.Plural(utf8.RuneCountInString(text), "character", "characters"))
	if removed > 0 {
		note += fmt.Sprintf("; %d terminal %s left out", removed, format.Plural(removed, "control", "controls"))
	}
	m.say(note + ").")
	cmds := []tea.Cmd{tea.SetClipboard(text)}
	if clip := m.ed.clipboard; clip != nil {
		cmds = append(cmds, func() tea.Msg {
			if err := clip(text); err != nil {
				return noteMsg{text: "Copied through the terminal (OSC 52); the system clipboard tool failed: " + err.Error(), error: true}
			}
			return nil
		})
	}
	return m, tea.Batch(cmds...)
}

// lastReply is the last assistant entry with text.
func lastReply(entries []*transcript.Entry) *transcript.Entry {
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.Role() == transcript.RoleAssistant && e.Text() != "" {
			return e
		}
	}
	return nil
}
