package perform

import (
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// Toolbox presents a tool registry to the engine; nil for a nil registry.
func Toolbox(r *tools.Registry) chat.Toolbox {
	if r == nil {
		return nil
	}
	return toolbox{r}
}

type toolbox struct{ r *tools.Registry }

func (t toolbox) Definitions() []wire.Tool {
	defs := t.r.Definitions()
	out := make([]wire.Tool, len(defs))
	for i, d := range defs {
		out[i] = wire.Tool{Name: d.Name, Description: d.Description, Parameters: d.Parameters}
	}
	return out
}

func (t toolbox) SideEffects(name string) bool { return t.r.SideEffects(name) }

func (t toolbox) Check(c phase.ToolCall) string { return t.r.Check(readyCall(c)) }

func (t toolbox) Describe(c phase.ToolCall) string {
	return t.r.DescribeArgs(tools.Call{ID: c.ID, Name: c.Name, Arguments: c.ArgsText})
}

// readyCall is a ready call as the registry takes it: with the arguments the engine's call
// machine parsed, so the registry does not parse them again.
func readyCall(c phase.ToolCall) tools.Call {
	args := c.Args
	return tools.Call{ID: c.ID, Name: c.Name, Arguments: c.ArgsText, Args: &args}
}

// engineResult is a run's result as the engine keeps it: what the model and the card read.
func engineResult(r tools.Result) phase.ToolResult {
	return phase.ToolResult{Output: r.Output, IsError: r.IsError, Duration: r.Duration}
}

func (t toolbox) ApprovalKey(name string) string { return t.r.ApprovalKey(name) }

func (t toolbox) Pending() []string { return t.r.Pending() }
