package mcp

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
)

// chunk is a scenario "data" line carrying one chat.completion.chunk.
func chunk(delta map[string]any, finish string) string {
	choice := map[string]any{"index": 0, "delta": delta, "finish_reason": nil}
	if finish != "" {
		choice["finish_reason"] = finish
	}
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-mcp", "object": "chat.completion.chunk",
		"created": 1795953600, "model": "m", "choices": []any{choice}})
	return "data " + string(b)
}

// callScenario is an answer that calls tool with args mid-stream (text follows the call),
// and quotes the results in the follow-up answer.
func callScenario(tool, args string) string {
	return strings.Join([]string{
		"description mcp: one " + tool + " call", "followup quote", "status 200",
		"header Content-Type: text/event-stream",
		chunk(map[string]any{"role": "assistant", "content": "Calling " + tool + "."}, ""),
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": "call_mcp_1", "type": "function",
			"function": map[string]any{"name": tool, "arguments": args}}}}, ""),
		chunk(map[string]any{"content": " Waiting for it."}, ""),
		chunk(map[string]any{}, "tool_calls"),
		"data [DONE]",
	}, "\n") + "\n"
}

// chatServer is the fixture server with one scenario per name, recording request bodies.
type chatServer struct {
	URL      string
	requests chan []byte
}

func newChatServer(t *testing.T, scenarios map[string]string) *chatServer {
	t.Helper()
	dir := t.TempDir()
	for name, text := range scenarios {
		if err := os.WriteFile(filepath.Join(dir, name+".scenario"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := fixtures.NewHandler(fixtures.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs := &chatServer{requests: make(chan []byte, 16)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body json.RawMessage
		json.NewDecoder(r.Body).Decode(&body)
		cs.requests <- body
		r.Body = ioNopCloser(body)
		h.ServeHTTP(w, r)
	}))
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	t.Cleanup(hs.Close)
	cs.URL = hs.URL + "/v1"
	return cs
}

// drive runs an engine over srv with reg's tools, the way the line mode does.
type drive struct {
	t *testing.T
	d *perform.Driver
}

func newDrive(t *testing.T, srv *chatServer, reg *tools.Registry, cfg chat.Config) *drive {
	t.Helper()
	cfg.Tools = perform.Toolbox(reg)
	client := stream.NewClient(srv.URL, "")
	d := perform.NewDriver(chat.New(cfg, nil), &perform.Performer{Client: client, Tools: reg}, nil)
	t.Cleanup(func() {
		d.Apply(d.Chat.Stop())
		d.Wait()
	})
	return &drive{t: t, d: d}
}

func (dr *drive) until(what string, cond func() bool) {
	dr.t.Helper()
	giveUp := testwait.After(dr.t)
	for !cond() {
		select {
		case msg := <-dr.d.Results():
			dr.d.Handle(msg)
		case <-giveUp:
			dr.t.Fatalf("gave up waiting for %s; phase %s", what, dr.d.Chat.State.Phase)
		}
	}
}

func (dr *drive) turnOver() bool {
	p := dr.d.Chat.State.Phase
	return p == phase.Complete || p == phase.Error
}

// toolResults returns the tool messages of the last history.
func toolResults(h []wire.Message) []string {
	var out []string
	for _, m := range h {
		if m.Role == "tool" {
			out = append(out, m.Text())
		}
	}
	return out
}

// The model's call to <server>__<tool> runs the server's tool mid-stream and the turn
// completes with its result, over stdio and over streamable HTTP.
func TestModelCallsAnMCPToolAndTheTurnCompletes(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			cfg := stdioServer(t, "stdio", "")
			if transport == "http" {
				cfg = Server{URL: httpServer(t, "", nil)}
			}
			m, reg := start(t, Config{"t": cfg})
			settle(t, m)
			srv := newChatServer(t, map[string]string{"echo": callScenario("t__echo", `{"text":"from the server"}`)})
			dr := newDrive(t, srv, reg, chat.Config{Model: "echo", CanAsk: true})
			dr.d.Apply(dr.d.Chat.Submit("echo something"))
			dr.until("the turn is over", dr.turnOver)
			if dr.d.Chat.State.Phase != phase.Complete {
				t.Fatalf("phase %s (%s)", dr.d.Chat.State.Phase, dr.d.Chat.State.Reason)
			}
			first := <-srv.requests
			if !strings.Contains(string(first), `"name":"t__echo"`) {
				t.Errorf("the request did not offer t__echo: %s", first)
			}
			if got := toolResults(dr.d.Chat.History); len(got) != 1 || got[0] != "from the server" {
				t.Errorf("tool results %q", got)
			}
			if last := dr.d.Chat.History[len(dr.d.Chat.History)-1]; !strings.Contains(last.Text(), "from the server") {
				t.Errorf("the follow-up reply %q does not quote the result", last.Text())
			}
		})
	}
}

// readOnlyHint tools run without a question; others ask; --yes asks nothing.
func TestApprovalFollowsTheAnnotations(t *testing.T) {
	m, reg := start(t, Config{"t": stdioServer(t, "stdio", "")})
	settle(t, m)
	srv := newChatServer(t, map[string]string{"note": callScenario("t__write_note", `{"text":"milk"}`)})

	dr := newDrive(t, srv, reg, chat.Config{Model: "note", CanAsk: true})
	dr.d.Apply(dr.d.Chat.Submit("note milk"))
	dr.until("the approval question", dr.d.Chat.Asking)
	if ask := dr.d.Chat.State.Ask; !strings.Contains(ask, "text=milk") {
		t.Errorf("the question shows %q, want the decoded arguments", ask)
	}
	dr.d.Apply(dr.d.Chat.Approve(chat.Allow))
	dr.until("the turn is over", dr.turnOver)
	if got := toolResults(dr.d.Chat.History); len(got) != 1 || got[0] != "wrote milk" {
		t.Errorf("after y: %q", got)
	}

	yes := newDrive(t, srv, reg, chat.Config{Model: "note", CanAsk: true, AutoApprove: true})
	yes.d.Apply(yes.d.Chat.Submit("note milk"))
	yes.until("the turn is over", func() bool { return yes.turnOver() || yes.d.Chat.Asking() })
	if yes.d.Chat.Asking() {
		t.Fatal("--yes asked")
	}
	if got := toolResults(yes.d.Chat.History); len(got) != 1 || got[0] != "wrote milk" {
		t.Errorf("with --yes: %q", got)
	}
}

// Esc during a hanging MCP call ends the turn at once; the history says the call was stopped.
func TestStopDuringAHangingCallKeepsTheHistoryValid(t *testing.T) {
	m, reg := start(t, Config{"t": stdioServer(t, "stdio", "")})
	settle(t, m)
	srv := newChatServer(t, map[string]string{"sleep": callScenario("t__sleep", `{}`)})
	dr := newDrive(t, srv, reg, chat.Config{Model: "sleep", CanAsk: true})
	dr.d.Apply(dr.d.Chat.Submit("sleep"))
	dr.until("the tool to run", func() bool {
		e := dr.d.Chat.Entries()[len(dr.d.Chat.Entries())-1]
		return len(e.Cards()) == 1 && e.Cards()[0].Status() == phase.CallRunning
	})
	dr.d.Apply(dr.d.Chat.Stop())
	if p := dr.d.Chat.State.Phase; p != phase.Complete {
		t.Fatalf("phase after Stop: %s", p)
	}
	if got := toolResults(dr.d.Chat.History); len(got) != 1 || got[0] != "stopped by the user" {
		t.Errorf("history: %q", got)
	}
	dr.d.Wait() // the abandoned call's goroutine returns: the SDK dropped the call
}

// A request sent while a server is still starting goes out with the tools that are ready,
// and says so once.
func TestRequestWhileAServerStartsSaysSoOnce(t *testing.T) {
	slow := silentServer(t.TempDir())
	slow.StartupTimeout = Duration(time.Minute)
	_, reg := start(t, Config{"slow": slow})
	toolbox := perform.Toolbox(reg)
	c := chat.New(chat.Config{Model: "text", Tools: toolbox, CanAsk: true}, nil)
	c.Submit("hello")
	c.Stop()
	c.Submit("again")
	c.Stop()
	var notices []string
	for _, e := range c.Entries() {
		if strings.HasPrefix(e.Text(), "Still starting") {
			notices = append(notices, e.Text())
		}
	}
	if len(notices) != 1 || notices[0] != "Still starting: MCP server slow. This request goes out with the tools that are ready." {
		t.Errorf("notices %q", notices)
	}
}

// The chat works while a server never answers initialize; the server is reported failed
// within its startup timeout.
func TestChatWorksWhileAServerNeverInitialises(t *testing.T) {
	dir := t.TempDir()
	slow := silentServer(dir)
	slow.StartupTimeout = Duration(5 * time.Second)
	m, reg := start(t, Config{"slow": slow})
	srv := newChatServer(t, nil)
	dr := newDrive(t, srv, reg, chat.Config{Model: "text", CanAsk: true})
	dr.d.Apply(dr.d.Chat.Submit("hello"))
	dr.until("the turn is over", dr.turnOver)
	if dr.d.Chat.State.Phase != phase.Complete {
		t.Fatalf("phase %s (%s)", dr.d.Chat.State.Phase, dr.d.Chat.State.Reason)
	}
	// The request went out while the server was starting (the engine said so when it sent
	// it), however long the turn then took on a loaded machine.
	if !slices.ContainsFunc(dr.d.Chat.Entries(), func(e *transcript.Entry) bool {
		return strings.HasPrefix(e.Text(), "Still starting: MCP server slow.")
	}) {
		t.Fatalf("the request did not go out while the server was starting (server %s); the reply must not have waited for it", m.Status()[0].State)
	}
	settle(t, m)
	if st := m.Status()[0]; st.State != StateFailed || !strings.Contains(st.Reason, "within 5s") {
		t.Errorf("state %s, reason %q", st.State, st.Reason)
	}
}
