package chat

import (
	"slices"
	"strings"
)

// CommandID names a slash command; the front ends dispatch on it.
type CommandID uint8

const (
	CommandHelp CommandID = iota + 1
	CommandNew
	CommandClear
	CommandModel
	CommandSessions
	CommandCopy
	CommandRetry
	CommandSystem
	CommandUsage
	CommandQuit
	CommandAttach
	CommandQueue
	CommandCompact
)

// Command is one slash command of both front ends: its name, other names it answers to, the
// argument it takes ("" none), and what it does, for /help.
type Command struct {
	ID      CommandID
	Name    string
	Aliases []string
	Args    string
	Does    string
}

// Commands are the slash commands, in the order /help lists them. Both front ends take exactly
// these; a line starting with one slash that names none is an error, never a message.
var Commands = []Command{
	{ID: CommandHelp, Name: "/help", Does: "list the commands"},
	{ID: CommandNew, Name: "/new", Does: "start a new conversation (the current one stays saved)"},
	{ID: CommandClear, Name: "/clear", Does: "clear the transcript; the conversation is kept and still sent"},
	{ID: CommandModel, Name: "/model", Does: "switch to another configured model"},
	{ID: CommandSessions, Name: "/sessions", Does: "pick a saved conversation to continue"},
	{ID: CommandCopy, Name: "/copy", Args: "[code [N]]", Does: "copy the last reply, or its last (or Nth) code block"},
	{ID: CommandRetry, Name: "/retry", Does: "send the last request again"},
	{ID: CommandAttach, Name: "/attach", Args: "PATH… | clear", Does: "attach files to the next message (or @path in it); clear drops them"},
	{ID: CommandSystem, Name: "/system", Args: "TEXT", Does: "set the system prompt for the next requests (empty: none)"},
	{ID: CommandUsage, Name: "/usage", Does: "how full the context is, what fills it, and what the conversation cost"},
	{ID: CommandQueue, Name: "/queue", Args: "[send | clear]", Does: "list the messages queued while a reply streams; send them now, or drop them"},
	{ID: CommandCompact, Name: "/compact", Args: "[what to keep]", Does: "summarise the older turns and send the summary in their place (the conversation stays saved)"},
	{ID: CommandQuit, Name: "/quit", Aliases: []string{"/exit"}, Does: "quit"},
}

// SlashText is /help's line for a message that starts with a slash.
const SlashText = "//text — send text starting with a slash"

// IsCommand reports whether a line is a command rather than a message: it starts with one
// slash ("//" sends a slash).
func IsCommand(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "//")
}

// ParseCommand splits a command line into the name typed and its argument (trimmed) and finds
// the command the name is; ok is false when it is none.
func ParseCommand(line string) (name, arg string, c Command, ok bool) {
	name, arg, _ = strings.Cut(strings.TrimSpace(line), " ")
	arg = strings.TrimSpace(arg)
	for _, c := range Commands {
		if c.Name == name || slices.Contains(c.Aliases, name) {
			return name, arg, c, true
		}
	}
	return name, arg, Command{}, false
}

// CommandsHelp is /help's list of the commands, one line each, and the line for a slash.
func CommandsHelp() []string {
	lines := make([]string, 0, len(Commands)+1)
	for _, c := range Commands {
		lines = append(lines, strings.TrimSpace(c.Name+" "+c.Args)+" — "+c.Does)
	}
	return append(lines, SlashText)
}

// CompleteCommand is what a command name being typed may become: the names starting with
// prefix, and the longest start they share (with a space after it when only one matches).
func CompleteCommand(prefix string) (names []string, common string) {
	for _, c := range Commands {
		if strings.HasPrefix(c.Name, prefix) {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return nil, prefix
	}
	common = names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, common) {
			common = common[:len(common)-1]
		}
	}
	if len(names) == 1 {
		common += " "
	}
	return names, common
}
