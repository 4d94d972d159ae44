package chat

import (
	"slices"
	"strings"
	"testing"
)

// Every command is found by its name and its other names, with the argument after it; a name
// the table lacks is no command; "//" is a message.
func TestParseCommand(t *testing.T) {
	for _, c := range Commands {
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			typed, arg, got, ok := ParseCommand("  " + name + "   an  argument ")
			if !ok || got.ID != c.ID || typed != name || arg != "an  argument" {
				t.Errorf("%s: %q %q %+v %v", name, typed, arg, got, ok)
			}
			if !IsCommand(name) {
				t.Errorf("%s is not a command", name)
			}
		}
	}
	if name, _, _, ok := ParseCommand("/frobnicate now"); ok || name != "/frobnicate" {
		t.Errorf("an unknown command: %q %v", name, ok)
	}
	if IsCommand("//etc") || IsCommand("hello /help") || !IsCommand(" /help") {
		t.Error("IsCommand takes a slash at the start only, and // as a message")
	}
}

// The table is well formed: distinct ids and names, each a slash and a word, and each with
// what it does; /help lists each with its argument.
func TestCommandTable(t *testing.T) {
	seen := map[string]bool{}
	ids := map[CommandID]bool{}
	help := strings.Join(CommandsHelp(), "\n")
	for _, c := range Commands {
		if ids[c.ID] || c.ID == 0 {
			t.Errorf("%s: id %d is taken or zero", c.Name, c.ID)
		}
		ids[c.ID] = true
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			if seen[name] || !strings.HasPrefix(name, "/") || strings.ContainsAny(name[1:], "/ \t") {
				t.Errorf("%q: a repeated or malformed name", name)
			}
			seen[name] = true
		}
		if c.Does == "" || !strings.Contains(help, strings.TrimSpace(c.Name+" "+c.Args)+" — "+c.Does) {
			t.Errorf("/help does not list %s as the table has it:\n%s", c.Name, help)
		}
	}
	if !strings.Contains(help, SlashText) {
		t.Error("/help does not say how to send a slash")
	}
}

// Completion offers the names starting with what is typed and extends it as far as they agree.
func TestCompleteCommand(t *testing.T) {
	for _, c := range []struct {
		prefix, common string
		names          []string
	}{
		{"/he", "/help ", []string{"/help"}},
		{"/s", "/s", []string{"/sessions", "/system"}},
		{"/se", "/sessions ", []string{"/sessions"}},
		{"/c", "/c", []string{"/clear", "/copy", "/compact"}},
		{"/co", "/co", []string{"/copy", "/compact"}},
		{"/com", "/compact ", []string{"/compact"}},
		{"/x", "/x", nil},
	} {
		names, common := CompleteCommand(c.prefix)
		if common != c.common || !slices.Equal(names, c.names) {
			t.Errorf("%q: %q %q, want %q %q", c.prefix, names, common, c.names, c.common)
		}
	}
}
