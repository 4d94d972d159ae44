package e2e

import (
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(blockingMCPEnv); dir != "" {
		os.Exit(serveBlockingMCP(dir))
	}
	testwait.VerifyTestMain(m) // no stream, tool or server goroutine outlives the tests
}

// fixedNow is the clock of the built-in `now` in these tests; nowText is how `now` reports it.
var fixedNow = time.Date(2026, 11, 29, 12, 10, 35, 0, time.UTC)

const nowText = "2026-11-29T12:10:35+00:00 (UTC)"

// newRegistry returns the built-ins confined to a fresh directory, with the screen sanitiser
// and the fixed clock (or now, when it is not nil), plus the tools of toolsTOML.
func newRegistry(t *testing.T, now func() time.Time, toolsTOML string) *tools.Registry {
	t.Helper()
	reg, err := tools.NewRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg.Clean = safe.Text
	reg.Now = now
	if now == nil {
		reg.Now = func() time.Time { return fixedNow }
	}
	if toolsTOML != "" {
		user, err := tools.Parse([]byte(toolsTOML), "e2e-tools.toml")
		if err != nil {
			t.Fatal(err)
		}
		if err := reg.Add(user...); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// session is one engine driven headlessly over HTTP, the way the line mode drives it.
type session struct {
	t   *testing.T
	d   *perform.Driver
	srv *server
	// observe, when set, sees every answer and the effects the engine asked for in return.
	observe func(msg any, effects []chat.Effect)
}

// newSession starts an engine for cfg over history, talking to srv and running reg's tools
// (nil: no tools), recording to log (nil: none). When the test ends, every effect still in
// flight is performed and the client's connections are closed.
func newSession(t *testing.T, srv *server, cfg chat.Config, history []wire.Message, reg *tools.Registry, log perform.Recorder) *session {
	t.Helper()
	return newSessionOn(t, srv, "", cfg, history, reg, log)
}

// newSessionOn is newSession with a client of the wire format wire.
func newSessionOn(t *testing.T, srv *server, wire wire.Wire, cfg chat.Config, history []wire.Message, reg *tools.Registry, log perform.Recorder) *session {
	t.Helper()
	if reg != nil {
		cfg.Tools = perform.Toolbox(reg)
	}
	transport := &http.Transport{}
	client := stream.NewClient(srv.URL, "")
	client.Wire = wire
	client.HTTP = &http.Client{Transport: transport}
	d := perform.NewDriver(chat.New(cfg, history), &perform.Performer{Client: client, Tools: reg}, log)
	s := &session{t: t, d: d, srv: srv}
	t.Cleanup(func() {
		d.Apply(d.Chat.Stop())
		d.Wait()
		transport.CloseIdleConnections()
	})
	return s
}

func (s *session) chat() *chat.Chat { return s.d.Chat }

// submit sends text and runs the turn until it is over.
func (s *session) submit(text string) {
	s.t.Helper()
	s.start(text)
	s.until("the turn is over", s.turnOver)
}

// start sends text without waiting.
func (s *session) start(text string) {
	s.t.Helper()
	effects := s.chat().Submit(text)
	if len(effects) == 0 {
		s.t.Fatalf("Submit(%q) did nothing in phase %s", text, s.chat().State.Phase)
	}
	s.d.Apply(effects)
}

// turnOver reports whether no request is open and the turn ended.
func (s *session) turnOver() bool {
	p := s.chat().State.Phase
	return p == phase.Complete || p == phase.Error
}

// until handles the engine's answers until cond holds, failing the test when its patience
// (testwait.Patience) runs out. cond is checked before each answer is waited for, on this
// goroutine (the engine's).
func (s *session) until(what string, cond func() bool) {
	s.t.Helper()
	began := time.Now()
	deadline := time.NewTimer(testwait.Patience(s.t))
	defer deadline.Stop()
	poll := time.NewTicker(5 * time.Millisecond) // for conditions outside the engine (files)
	defer poll.Stop()
	for !cond() {
		select {
		case msg := <-s.d.Results():
			s.handle(msg)
		case <-poll.C:
		case <-deadline.C:
			s.t.Fatalf("waited %v for %s; phase %s, status %q", time.Since(began).Round(time.Millisecond), what, s.chat().State.Phase, phase.Status(s.chat().State))
		}
	}
}

func (s *session) handle(msg any) {
	if s.observe == nil {
		s.d.Handle(msg)
		return
	}
	var effects []chat.Effect
	switch m := msg.(type) {
	case chat.StreamMsg:
		effects = s.chat().HandleStream(m)
	case chat.ToolDoneMsg:
		effects = s.chat().HandleToolDone(m)
	}
	s.observe(msg, effects)
	s.d.Apply(effects)
}

// lastReply is the text of the last assistant entry of the transcript.
func (s *session) lastReply() string {
	entries := s.chat().Entries()
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Role() == transcript.RoleAssistant {
			return entries[i].Text()
		}
	}
	return ""
}

// expectComplete fails unless the turn ended in complete.
func (s *session) expectComplete() {
	s.t.Helper()
	if st := s.chat().State; st.Phase != phase.Complete {
		s.t.Fatalf("phase %s (%s), want complete; last reply %q", st.Phase, st.Reason, s.lastReply())
	}
}
