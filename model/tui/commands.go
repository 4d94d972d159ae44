package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
)

// isCommandWord reports whether v is a command being typed: a slash and letters, no space.
func isCommandWord(v string) bool {
	return strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !strings.ContainsAny(v, " \t\n")
}

// complete extends the command typed to the longest prefix shared by those it may become (a
// space follows a unique match).
func (m *Model) complete(v string) {
	names, common := chat.CompleteCommand(v)
	if len(names) == 0 {
		m.warn("No command starts with " + v + " — /help lists them.")
		return
	}
	m.composer.SetValue(common)
	m.composer.MoveToEnd()
}

// runsAtOnce reports whether the command line, Entered while a reply streams, runs at once
// rather than after the reply: /queue acts on the queue the reply is followed by, and /help
// and /usage only show what is known now; none of them starts a request or changes what one
// would send. /copy waits: it copies the reply, which is still being written.
func runsAtOnce(line string) bool {
	_, _, c, _ := chat.ParseCommand(line)
	switch c.ID {
	case chat.CommandQueue, chat.CommandHelp, chat.CommandUsage:
		return true
	}
	return false
}

// runCommand runs a composer command. An unknown one stays in the composer, with an error on the
// status line: it is never sent to the model.
func (m *Model) runCommand(line string) (*Model, tea.Cmd) {
	name, arg, c, _ := chat.ParseCommand(line)
	done := func() { m.composer.Reset(); m.resetHistory() }
	switch c.ID {
	case chat.CommandHelp:
		done()
		m.chat.Notice(m.helpText())
		m.follow()
		return m, nil
	case chat.CommandQuit:
		m, cmd := m.after(m.chat.Stop())
		return m, m.quit(cmd)
	case chat.CommandClear:
		done()
		m.chat.ClearTranscript()
		m.follow()
		m.say("Screen cleared. The conversation is kept: the next message still sends it.")
		return m, nil
	case chat.CommandNew:
		done()
		if m.ed.convs != nil {
			m.log = m.ed.convs.New()
		}
		m.chat.Restart(nil)
		m.follow()
		m.say("A new conversation.")
		return m.after(nil)
	case chat.CommandSessions:
		done()
		return m.openPicker()
	case chat.CommandModel:
		done()
		return m.OpenModelPicker()
	case chat.CommandCopy:
		if arg == "" {
			done()
			return m.copyReply(nil)
		}
		word, num, _ := strings.Cut(arg, " ")
		if word != "code" {
			m.warn("Usage: /copy, or /copy code [N] for the last (or Nth) code block of the last reply.")
			return m, nil
		}
		n := 0
		if num = strings.TrimSpace(num); num != "" {
			var err error
			if n, err = strconv.Atoi(num); err != nil || n < 1 {
				m.warn("/copy code N: N counts the code blocks from 1, not " + strconv.Quote(num) + ".")
				return m, nil
			}
		}
		done()
		return m.copyReply(&n)
	case chat.CommandRetry:
		done()
		m.follow()
		if m.chat.State.Phase == phase.Error {
			return m.after(m.chat.Retry())
		}
		if !m.chat.CanRegenerate() {
			m.warn("Nothing to retry yet.")
			return m, nil
		}
		return m.after(m.chat.Regenerate())
	case chat.CommandUsage:
		done()
		m.chat.Notice(strings.Join(m.chat.UsageReport(), "\n"))
		m.follow()
		return m, nil
	case chat.CommandCompact:
		if m.chat.State.Phase.Streaming() {
			m.warn("/compact waits for the reply to end (Esc stops it).")
			return m, nil
		}
		done()
		m.follow()
		return m.after(m.chat.Compact(arg))
	case chat.CommandAttach:
		m.resetHistory()
		return m.attachCommand(arg)
	case chat.CommandQueue:
		done()
		if arg == "clear" && m.holdsMessages() {
			return m.clearQueue()
		}
		lines, effects := m.chat.QueueCommand(arg)
		switch {
		case len(lines) > 1:
			m.chat.Notice(strings.Join(lines, "\n"))
			m.follow()
		case len(lines) == 1:
			m.say(lines[0])
		default:
			m.follow()
		}
		return m.after(effects)
	case chat.CommandSystem:
		done()
		m.chat.SetSystem(arg)
		if arg == "" {
			m.say("No system prompt from now on.")
		} else {
			m.say("System prompt set for the next requests.")
		}
		return m, nil
	}
	m.warn("Unknown command " + name + " — /help lists the commands; // sends a message starting with a slash.")
	return m, nil
}

// helpText is what /help shows: the commands, then every key of the key list.
func (m *Model) helpText() string {
	var b strings.Builder
	b.WriteString("Commands:")
	for _, line := range chat.CommandsHelp() {
		b.WriteString("\n  " + line)
	}
	b.WriteString("\nKeys:")
	for _, k := range m.allKeys() {
		b.WriteString("\n  " + k.Keys + " — " + k.Does)
	}
	return b.String()
}
