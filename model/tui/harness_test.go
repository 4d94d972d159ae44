package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view"
	"github.com/phasechat/phasechat/view/safe"
)

// The tests drive Model.Update the way Bubble Tea does, one message at a time, but run the
// returned commands themselves, on the test goroutine. The commands really open requests: the
// performer's HTTP client is wired to the fixture server's handler in this process (no socket,
// no pacing), so every stream message a test feeds carries the request id the engine chose and
// one real frame of a catalogued scenario.

// inProcess is an http.RoundTripper that answers with a handler in this process. The whole
// answer is recorded before the client reads it, so nothing runs concurrently (a chunkedReply
// is read as it is made, on the reader's goroutine). It keeps every
// request, with its context, so tests can check what was sent and that Stop cancelled it.
type inProcess struct {
	h    http.Handler
	mu   sync.Mutex
	sent []sentRequest
}

// sentRequest is what one chat request asked for.
type sentRequest struct {
	ctx      context.Context
	body     []byte         // as sent
	Model    string         `json:"model"`
	Messages []wire.Message `json:"messages"`
}

func (p *inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	sent := sentRequest{ctx: r.Context(), body: body}
	if err := json.Unmarshal(body, &sent); err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.sent = append(p.sent, sent)
	p.mu.Unlock()
	if c, ok := p.h.(*chunkedReply); ok {
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(c.body()), ContentLength: -1, Request: r}, nil
	}
	in := r.Clone(r.Context())
	in.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, in)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// requests returns a copy of the requests sent so far.
func (p *inProcess) requests() []sentRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]sentRequest(nil), p.sent...)
}

// toolsTOML defines the tools the scenarios call that are not built in: the seed scenario's lookup and
// a tool with side effects, which asks before it runs.
const toolsTOML = `
[[tool]]
name = "lookup"
description = "Looks a page up"
argv = ["printf", "2 headings: Intro, Usage"]
side_effects = false

[[tool]]
name = "write_note"
description = "Writes a note"
argv = ["printf", "saved"]
side_effects = true
`

// toolDuration replaces every tool's measured run time, so screens do not depend on the clock.
const toolDuration = 7 * time.Millisecond

// harness is a model under test with its in-process server and the messages its commands
// produced that have not been fed back yet.
type harness struct {
	t       testing.TB
	m       *Model
	server  *inProcess
	pending []tea.Msg
	cfg     chat.Config   // the engine's
	timers  []tea.Msg     // what the model's timers will deliver, in the order scheduled; fire sends them
	observe func(tea.Msg) // when set, sees every message a command produces, as it is produced
}

// schedule is the model's Ticker: the message is kept until the test fires it.
func (h *harness) schedule(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	h.timers = append(h.timers, fn(time.Time{}))
	return nil
}

// fire delivers the timer messages scheduled so far (not the ones they schedule in turn).
func (h *harness) fire() {
	h.t.Helper()
	due := h.timers
	h.timers = nil
	for _, msg := range due {
		h.send(msg)
	}
}

// harnessEpoch is the engine's time in the harness unless a test sets its own clock.
var harnessEpoch = time.Unix(1_700_000_000, 0)

// newHarness returns a model talking to scenario (a catalogued one, or one in
// testdata/scenarios), sized width x height, in plain styles; tune, if given, adjusts the
// engine's configuration.
func newHarness(t testing.TB, scenario string, width, height int, tune ...func(*chat.Config)) *harness {
	t.Helper()
	handler, err := fixtures.NewHandler(fixtures.Options{Dir: "testdata/scenarios"})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := tools.NewRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg.Clean = safe.Text
	defs, err := tools.Parse([]byte(toolsTOML), "harness-tools.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(defs...); err != nil {
		t.Fatal(err)
	}
	server := &inProcess{h: handler}
	client := stream.NewClient("http://fixtures.test/v1", "")
	client.HTTP, client.StallTimeout = &http.Client{Transport: server}, 0
	cfg := chat.Config{Model: scenario, Tools: perform.Toolbox(reg), CanAsk: true}
	for _, f := range tune {
		f(&cfg)
	}
	if cfg.Clock == nil { // a turn's tally shows no duration, so screens do not depend on speed
		cfg.Clock = func() time.Time { return harnessEpoch }
	}
	engine := chat.New(cfg, nil)
	h := &harness{t: t, server: server, cfg: cfg}
	h.m = New(Options{
		Chat:      engine,
		Performer: &perform.Performer{Client: client, Tools: reg, MaxBatch: 1}, // feedStream steps frame by frame
		Styles:    view.PlainStyles(),
		Footer:    view.Footer{Endpoint: "http://fixtures.test/v1", Model: scenario},
		Tick:      h.schedule,
	})
	h.send(tea.WindowSizeMsg{Width: width, Height: height})
	return h
}

// send folds msg into the model, runs the commands it returned and queues what they produced.
// It returns those messages.
func (h *harness) send(msg tea.Msg) []tea.Msg {
	h.t.Helper()
	next, cmd := h.m.Update(msg)
	h.m = next.(*Model)
	out := runCmd(cmd, h.observe)
	h.pending = append(h.pending, out...)
	return out
}

// Keys as Bubble Tea v2 reports them.
var (
	keyEnter    = tea.KeyPressMsg{Code: tea.KeyEnter}
	keyEsc      = tea.KeyPressMsg{Code: tea.KeyEscape}
	keyTab      = tea.KeyPressMsg{Code: tea.KeyTab}
	keyShiftTab = tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	keyCtrlR    = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	keyCtrlC    = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	keyPgUp     = tea.KeyPressMsg{Code: tea.KeyPgUp}
)

func keyRune(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// typeText types s into the model, one key press per character.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(keyRune(r))
	}
}

// submit types prompt and presses Enter; the first frame of the answer is then pending.
func (h *harness) submit(prompt string) {
	h.typeText(prompt)
	h.send(keyEnter)
}

// takeNext removes and returns the oldest pending message of type T.
func takeNext[T tea.Msg](h *harness) T {
	h.t.Helper()
	for i, msg := range h.pending {
		if m, ok := msg.(T); ok {
			h.pending = append(h.pending[:i:i], h.pending[i+1:]...)
			return m
		}
	}
	var zero T
	h.t.Fatalf("no pending %T; pending: %#v", zero, h.pending)
	return zero
}

// quiet fires the approval wait's timers scheduled so far: the user waited before answering.
func (h *harness) quiet() {
	h.t.Helper()
	var due []tea.Msg
	kept := h.timers[:0]
	for _, msg := range h.timers {
		if w, ok := msg.(waitMsg); ok && w.wait.For == chat.WaitApproval {
			due = append(due, msg)
		} else {
			kept = append(kept, msg)
		}
	}
	h.timers = kept
	for _, msg := range due {
		h.send(msg)
	}
}

// feedStream feeds the oldest pending stream message and returns it.
func (h *harness) feedStream() chat.StreamMsg {
	h.t.Helper()
	msg := takeNext[chat.StreamMsg](h)
	h.send(msg)
	return msg
}

// feedToolDone feeds the oldest pending tool result, with its duration fixed.
func (h *harness) feedToolDone() chat.ToolDoneMsg {
	h.t.Helper()
	msg := takeNext[chat.ToolDoneMsg](h)
	msg.Result.Duration = toolDuration
	h.send(msg)
	return msg
}

// feedAll feeds pending messages until none is left (the turn is over or waits for the user).
func (h *harness) feedAll() {
	h.t.Helper()
	for n := 0; len(h.pending) > 0; n++ {
		if n > 10000 {
			h.t.Fatal("the turn does not end")
		}
		switch h.pending[0].(type) {
		case chat.ToolDoneMsg:
			h.feedToolDone()
		default:
			msg := h.pending[0]
			h.pending = h.pending[1:]
			h.send(msg)
		}
	}
}

// cmdSlice is the type of tea.BatchMsg and of Bubble Tea's unexported sequence message.
var cmdSlice = reflect.TypeFor[[]tea.Cmd]()

// runCmd runs cmd and every command it batches or sequences, in order, on this goroutine, and
// returns the messages they produced. observe, when set, sees each message as it is produced
// (before any later command of a sequence runs).
func runCmd(cmd tea.Cmd, observe func(tea.Msg)) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if msg == nil {
		return nil
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().ConvertibleTo(cmdSlice) {
		var out []tea.Msg
		for _, c := range v.Convert(cmdSlice).Interface().([]tea.Cmd) {
			out = append(out, runCmd(c, observe)...)
		}
		return out
	}
	if observe != nil {
		observe(msg)
	}
	return []tea.Msg{msg}
}
