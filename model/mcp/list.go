package mcp

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/view/safe"
)

// WriteList prints each server, its state and tools, and the estimated tokens their
// definitions add to every request.
func WriteList(w io.Writer, status []ServerStatus) {
	total := 0
	for _, s := range status {
		n := s.DefinitionBytes()
		total += n
		line := fmt.Sprintf("%s (%s): %s", s.Name, s.Transport, s.State)
		if s.State == StateDisabled {
			line += " (enabled = false)"
		}
		if s.State == StateReady {
			line += fmt.Sprintf(", %d %s, ~%d tokens", len(s.Tools), format.Plural(len(s.Tools), "tool", "tools"), EstimatedTokens(n))
		}
		fmt.Fprintln(w, safe.Line(line))
		if s.Reason != "" {
			for _, l := range strings.Split(safe.Text(s.Reason), "\n") {
				fmt.Fprintln(w, "  "+l)
			}
		}
		if len(s.Missing) > 0 {
			fmt.Fprintln(w, "  warning: "+safe.Line(missingText(s.Missing)))
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, t := range s.Tools {
			how := "asks first"
			switch {
			case t.ReadOnly && !t.Asks:
				how = "read-only, runs at once"
			case !t.Asks:
				how = "runs at once (approve = never)"
			}
			fmt.Fprintf(tw, "  %s\t~%d tokens\t%s\n", safe.Line(t.Name), EstimatedTokens(t.Bytes), how)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "Tool definitions add ~%d tokens to every request (an estimate: %d bytes / 4).\n", EstimatedTokens(total), total)
}
