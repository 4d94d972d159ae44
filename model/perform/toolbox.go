package perform

import (
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/tools"
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

func (t toolbox) Check(c tools.Call) string { return t.r.Check(c) }

func (t toolbox) Describe(c tools.Call) string { return t.r.DescribeArgs(c) }

func (t toolbox) ApprovalKey(name string) string { return t.r.ApprovalKey(name) }

func (t toolbox) Pending() []string { return t.r.Pending() }
