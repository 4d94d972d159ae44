package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func external(t *testing.T, name string, call ExternalFunc) Tool {
	t.Helper()
	tool, err := NewExternal(External{Name: name, Description: "d", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`),
		Timeout: time.Second, Call: call})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func TestExternalToolsRunThroughTheRegistrysPath(t *testing.T) {
	r := newTestRegistry(t, "")
	var got string
	ok := external(t, "srv__ok", func(_ context.Context, args json.RawMessage) (string, bool, error) {
		got = string(args)
		return "out \x1b[2J" + strings.Repeat("x", 100), false, nil
	})
	bad := external(t, "srv__bad", func(context.Context, json.RawMessage) (string, bool, error) { return "it failed", true, nil })
	gone := external(t, "srv__gone", func(context.Context, json.RawMessage) (string, bool, error) {
		return "", false, errors.New("the connection closed")
	})
	if err := r.SetGroup("MCP server srv", []Tool{ok, bad, gone}); err != nil {
		t.Fatal(err)
	}
	r.MaxOutput = 40
	res := r.Run(context.Background(), Call{Name: "srv__ok", Arguments: `{"n": 1}`})
	if res.IsError || got != `{"n": 1}` || strings.Contains(res.Output, "\x1b") || !strings.Contains(res.Output, "bytes omitted") {
		t.Errorf("ok: %+v (args %q): want the output sanitised and capped", res, got)
	}
	if res := r.Run(context.Background(), Call{Name: "srv__ok", Arguments: `{}`}); res.Outcome != OutcomeRejected {
		t.Errorf("invalid arguments ran: %+v", res)
	}
	if res := r.Run(context.Background(), Call{Name: "srv__bad", Arguments: `{"n":1}`}); res.Outcome != OutcomeFailed || res.Output != "it failed" {
		t.Errorf("isError: %+v", res)
	}
	if res := r.Run(context.Background(), Call{Name: "srv__gone", Arguments: `{"n":1}`}); res.Outcome != OutcomeFailed || res.Output != "srv__gone failed: the connection closed" {
		t.Errorf("transport error: %+v", res)
	}
}

func TestGroupsReplaceDropAndReportPending(t *testing.T) {
	r := newTestRegistry(t, "")
	noop := func(context.Context, json.RawMessage) (string, bool, error) { return "", false, nil }
	r.ExpectGroup("MCP server a")
	if p := r.Pending(); len(p) != 1 || p[0] != "MCP server a" {
		t.Fatalf("pending %v", p)
	}
	res := r.Run(context.Background(), Call{Name: "a__x", Arguments: `{"n":1}`})
	if !strings.Contains(res.Output, "still starting, their tools not available yet: MCP server a") {
		t.Errorf("unknown tool while a group is pending: %q", res.Output)
	}
	if err := r.SetGroup("MCP server a", []Tool{external(t, "a__x", noop)}); err != nil {
		t.Fatal(err)
	}
	if len(r.Pending()) != 0 || !strings.HasSuffix(strings.Join(r.Names(), ","), "a__x") {
		t.Errorf("after SetGroup: pending %v, names %v", r.Pending(), r.Names())
	}
	if err := r.SetGroup("MCP server b", []Tool{external(t, "a__x", noop)}); err == nil {
		t.Errorf("a name of another group was taken")
	}
	if err := r.SetGroup("MCP server b", []Tool{external(t, "read_file", noop)}); err == nil {
		t.Errorf("a built-in's name was taken")
	}
	r.SetGroup("MCP server a", []Tool{external(t, "a__y", noop)})
	if names := strings.Join(r.Names(), ","); strings.Contains(names, "a__x") || !strings.Contains(names, "a__y") {
		t.Errorf("SetGroup must replace the group: %s", names)
	}
	r.DropGroup("MCP server a")
	if names := strings.Join(r.Names(), ","); strings.Contains(names, "a__") {
		t.Errorf("DropGroup left %s", names)
	}
}

func TestApprovalKeyFollowsWhatTheToolDeclares(t *testing.T) {
	r := newTestRegistry(t, "")
	mk := func(key string) Tool {
		tool, err := NewExternal(External{Name: "s__t", SideEffects: true, ApprovalKey: key,
			Call: func(context.Context, json.RawMessage) (string, bool, error) { return "", false, nil }})
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	r.SetGroup("g", []Tool{mk("v1")})
	before := r.ApprovalKey("s__t")
	r.SetGroup("g", []Tool{mk("v2")})
	if before == r.ApprovalKey("s__t") || r.ApprovalKey("now") != "now" {
		t.Errorf("keys %q %q %q", before, r.ApprovalKey("s__t"), r.ApprovalKey("now"))
	}
}

func TestNewExternalRefusesBadDefinitions(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (string, bool, error) { return "", false, nil }
	for _, e := range []External{
		{Name: "bad name", Call: noop},
		{Name: "ok", Call: noop, Parameters: json.RawMessage(`{"type":"string"}`)},
		{Name: "ok", Call: noop, Parameters: json.RawMessage(`{"type":"object","$ref":"http://example.invalid/s.json"}`)},
		{Name: "ok"},
	} {
		if _, err := NewExternal(e); err == nil {
			t.Errorf("%+v was accepted", e)
		}
	}
}
