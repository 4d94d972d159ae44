package linemode

import (
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/view/safe"
)

// Destination is where the chat goes, as the line mode's first line names it.
type Destination struct {
	Endpoint string // the endpoint URL or host; only the host is said (never user info)
	Model    string
	Demo     bool   // the built-in demo model answers
	Wire     string // the wire format in use, for people (e.g. "Anthropic Messages"); empty: not said
}

// header is what line mode says first: where the chat goes and which keys work.
func header(f Destination, terminal bool) []string {
	first := "phasechat, accessible line mode."
	if model := safe.Line(f.Model); model != "" {
		first += " Model " + model
		if f.Demo {
			first += " on the built-in demo"
		} else if host := safe.Line(format.Host(f.Endpoint)); host != "" {
			first += " at " + host
		}
		if wire := safe.Line(f.Wire); wire != "" {
			first += ", " + wire
		}
		first += "."
	}
	if !terminal {
		return []string{first, "Reading messages from standard input, one per line. " +
			"Esc and Retry need a terminal, and tools that need approval are declined."}
	}
	return []string{first, "Type a message and press Enter to send. While a reply is written, Esc stops it. " +
		"Ctrl+D on an empty line, or Ctrl+C, quits."}
}
