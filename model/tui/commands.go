package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/phase"
)

// slashCommand is one command of the composer.
type slashCommand struct {
	name, args, does string
}

// commands lists the composer's commands in the order /help shows them.
var commands = []slashCommand{
	{"/help", "", "list the keys and commands"},
	{"/new", "", "start a new conversation (the current one stays saved)"},
	{"/clear", "", "clear the screen; the conversation is kept and still sent"},
	{"/model", "", "switch to another configured model (also Ctrl+P)"},
	{"/sessions", "", "pick a saved conversation to continue (also Ctrl+S)"},
	{"/copy", "[code [N]]", "copy the last reply, or its last (or Nth) code block"},
	{"/retry", "", "send the last request again"},
	{"/system", "TEXT", "set the system prompt for the next requests (empty: none)"},
	{"/quit", "", "quit (also Ctrl+C on an empty composer)"},
}

// isCommandWord reports whether v is a command being typed: a slash and letters, no space.
func isCommandWord(v string) bool {
	return strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !strings.ContainsAny(v, " \t\n")
}

// matching returns the names of the commands starting with prefix.
func matching(prefix string) []string {
	var out []string
	for _, c := range commands {
		if strings.HasPrefix(c.name, prefix) {
			out = append(out, c.name)
		}
	}
	return out
}

// complete extends the command typed to the longest prefix shared by those it may become (a
// space follows a unique match).
func (m *Model) complete(v string) {
	names := matching(v)
	if len(names) == 0 {
		m.warn("No command starts with " + v + " — /help lists them.")
		return
	}
	common := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, common) {
			common = common[:len(common)-1]
		}
	}
	if len(names) == 1 {
		common += " "
	}
	m.composer.SetValue(common)
	m.composer.MoveToEnd()
}

// runCommand runs a composer command. An unknown one stays in the composer, with an error on the
// status line: it is never sent to the model.
func (m *Model) runCommand(line string) (*Model, tea.Cmd) {
	name, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	arg = strings.TrimSpace(arg)
	done := func() { m.composer.Reset(); m.resetHistory() }
	switch name {
	case "/help":
		done()
		m.chat.Notice(m.helpText())
		m.scrollUp = 0
		return m, nil
	case "/quit", "/exit":
		m, cmd := m.after(m.chat.Stop())
		return m, m.quit(cmd)
	case "/clear":
		done()
		m.chat.ClearTranscript()
		m.scrollUp = 0
		m.say("Screen cleared. The conversation is kept: the next message still sends it.")
		return m, nil
	case "/new":
		done()
		if m.ed.convs != nil {
			m.log = m.ed.convs.New()
		}
		m.chat.Restart(nil)
		m.scrollUp = 0
		m.say("A new conversation.")
		return m.after(nil)
	case "/sessions":
		done()
		return m.openPicker()
	case "/model":
		done()
		return m.OpenModelPicker()
	case "/copy":
		if arg == "" {
			done()
			return m.copyReply(nil)
		}
		word, num, _ := strings.Cut(arg, " ")
		if word != "code" {
			m.warn("Usage: /copy, or /copy code [N] for the Nth code block of the last reply.")
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
	case "/retry":
		done()
		m.scrollUp = 0
		if m.chat.State.Phase == phase.Error {
			return m.after(m.chat.Retry())
		}
		if !m.chat.CanRegenerate() {
			m.warn("Nothing to retry yet.")
			return m, nil
		}
		return m.after(m.chat.Regenerate())
	case "/system":
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
	b.WriteString("Commands:\n")
	for _, c := range commands {
		b.WriteString("  " + strings.TrimSpace(c.name+" "+c.args) + " — " + c.does + "\n")
	}
	b.WriteString("  //text — send text starting with a slash\nKeys:")
	for _, k := range m.allKeys() {
		b.WriteString("\n  " + k.Keys + " — " + k.Does)
	}
	return b.String()
}
