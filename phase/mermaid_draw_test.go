package phase

import (
	"fmt"
	"strings"
)

// mermaid renders Transitions as a Mermaid state diagram. Edges between the same two phases
// are merged into one arrow labelled with every event kind that takes it, in Kinds order.
func mermaid() string {
	var b strings.Builder
	b.WriteString("stateDiagram-v2\n")
	for _, p := range Phases {
		fmt.Fprintf(&b, "    state %q as %s\n", p.String(), mermaidID(p))
	}
	fmt.Fprintf(&b, "    [*] --> %s\n", mermaidID(Idle))
	for _, from := range Phases {
		for _, to := range Phases {
			var on []string
			for _, k := range Kinds {
				if next, ok := Next(from, k); ok && next == to {
					on = append(on, k.String())
				}
			}
			if len(on) > 0 {
				fmt.Fprintf(&b, "    %s --> %s: %s\n", mermaidID(from), mermaidID(to), strings.Join(on, ", "))
			}
		}
	}
	return b.String()
}

func mermaidID(p Phase) string { return strings.ReplaceAll(p.String(), "-", "_") }
