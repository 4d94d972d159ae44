package safe

import "github.com/phasechat/phasechat/phase"

// ToolName is a tool's name as every front end shows and announces it: phase.ToolName, the
// status line's rendering, made safe for the screen. The tool card, the status line and the
// line mode's tool lines all write a name through it, so one name never reads two ways.
func ToolName(name string) string { return Line(phase.ToolName(name)) }
