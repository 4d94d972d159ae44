package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// External describes a tool whose work is done outside phasechat, by an MCP server. The
// registry treats it like every other tool: its arguments are validated against Parameters
// before Call runs, the call is bounded by Timeout and by the caller's context, and the
// output is capped at MaxOutput and sanitised. Call does only the remote work.
type External struct {
	Name        string          // what the model calls it: 1-64 of a-z A-Z 0-9 _ -
	Description string          // for the model
	Parameters  json.RawMessage // JSON Schema of the arguments object; nil means no arguments
	SideEffects bool            // the chat asks before each run (unless allowed or --yes)
	// ApprovalKey stands for what the tool declares about itself (e.g. a hash of its
	// annotations). An "allow for the session" answer holds for the name and this key only,
	// so a tool that changes what it declares is asked about again.
	ApprovalKey string
	Timeout     time.Duration // 0 means DefaultTimeout
	Call        ExternalFunc
}

// ExternalFunc runs an external tool with validated arguments (always a JSON object). It
// returns the text for the model and whether the tool reported an error, or err when the
// call could not be made or answered (the connection is gone, say). It must return promptly
// once ctx ends; whatever it returns then is ignored.
type ExternalFunc func(ctx context.Context, args json.RawMessage) (output string, isError bool, err error)

// NewExternal checks and compiles an external tool's definition.
func NewExternal(e External) (Tool, error) {
	if !validName(e.Name) {
		return Tool{}, fmt.Errorf("tools: %q is not a valid tool name: use 1-64 letters, digits, _ or -", e.Name)
	}
	if e.Call == nil {
		return Tool{}, fmt.Errorf("tools: external tool %q has no Call", e.Name)
	}
	params := []byte(e.Parameters)
	if len(params) == 0 {
		params = []byte(emptyObjectSchema)
	}
	sch, compact, err := compileSchema(params)
	if err != nil {
		return Tool{}, fmt.Errorf("tools: the input schema of %q is %v", e.Name, err)
	}
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return Tool{name: e.Name, description: e.Description, parameters: compact, schema: sch,
		sideEffects: e.SideEffects, timeout: timeout, external: e.Call, approvalKey: e.ApprovalKey}, nil
}

// SetGroup replaces the tools of a group (one MCP server's tools) with ts, and marks the
// group as no longer pending. A name already taken by a tool outside the group, or used twice
// in ts, is an error, and then the group is left as it was. Calls already running finish with
// the tool they started with.
func (r *Registry) SetGroup(group string, ts []Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := make(map[string]bool)
	for _, t := range ts {
		if t.schema == nil || t.external == nil {
			return fmt.Errorf("tools: tool %q was not made by NewExternal", t.name)
		}
		if old, ok := r.tools[t.name]; (ok && old.group != group) || seen[t.name] {
			return fmt.Errorf("tools: tool %q of %s has the name of another tool; it was not added", t.name, group)
		}
		seen[t.name] = true
	}
	r.dropGroupLocked(group)
	if r.groups == nil {
		r.groups = make(map[string][]*Tool)
	}
	list := make([]*Tool, 0, len(ts))
	for _, t := range ts {
		t.group = group
		r.tools[t.name] = &t
		list = append(list, &t)
	}
	r.groups[group] = list
	delete(r.pending, group)
	return nil
}

// ExpectGroup marks a group as pending: its tools are still coming (its server is starting).
func (r *Registry) ExpectGroup(group string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending == nil {
		r.pending = make(map[string]bool)
	}
	r.pending[group] = true
}

// DropGroup removes a group's tools and its pending mark.
func (r *Registry) DropGroup(group string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dropGroupLocked(group)
	delete(r.pending, group)
}

func (r *Registry) dropGroupLocked(group string) {
	for _, t := range r.groups[group] {
		delete(r.tools, t.name)
	}
	delete(r.groups, group)
}

// Pending lists the groups marked pending, sorted.
func (r *Registry) Pending() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.pending))
}

// ApprovalKey is what an "allow for the session" answer is remembered by: the name, joined
// with an external tool's ApprovalKey when it has one.
func (r *Registry) ApprovalKey(name string) string {
	if t := r.lookup(name); t != nil && t.approvalKey != "" {
		return name + "\x00" + t.approvalKey
	}
	return name
}

// all returns every tool in the order of Definitions: built-ins, added tools, then each
// group's tools, groups sorted by name. The caller holds r.mu.
func (r *Registry) all() []*Tool {
	if len(r.groups) == 0 {
		return r.order
	}
	list := slices.Clone(r.order)
	for _, g := range slices.Sorted(maps.Keys(r.groups)) {
		list = append(list, r.groups[g]...)
	}
	return list
}

// runExternal runs an external tool with runCtx, reporting a timeout or a stop as such and
// ignoring whatever the call returned after either.
func (r *Registry) runExternal(ctx, runCtx context.Context, t *Tool, args string) Result {
	out, isError, err := t.external(runCtx, json.RawMessage(args))
	if res, stopped := interrupted(ctx, runCtx, t, ""); stopped {
		return res
	}
	if err != nil {
		return Result{Outcome: OutcomeFailed, ExitCode: -1, Output: fmt.Sprintf("%s failed: %v", t.name, err)}
	}
	out = capText(out, r.maxOutput())
	if strings.TrimSpace(out) == "" {
		out = "(no output)"
	}
	if isError {
		return Result{Outcome: OutcomeFailed, Output: out}
	}
	return Result{Outcome: OutcomeOK, Output: out}
}
