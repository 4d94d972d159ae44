package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/safefile"
	"github.com/phasechat/phasechat/model/tools"
)

// Options wires a Manager to the rest of phasechat.
type Options struct {
	Registry *tools.Registry // required: servers' tools are put here as they get ready
	Dir      string          // working directory of stdio servers; "" means ours
	LogDir   string          // each stdio server's stderr goes to LogDir/NAME.log; "" keeps only a tail in memory
	// Lookup is the environment; nil means os.LookupEnv. Variables of tools.ProviderEnv and
	// Registry.HiddenEnv, and values holding one of Registry.Secrets, never reach a server.
	// Start adds the servers' own credentials to Registry.Secrets and their variables to
	// Registry.HiddenEnv (see registerSecrets), so no command tool and no record gets them.
	Lookup  func(string) (string, bool)
	Version string // phasechat's version, told to servers
}

// Manager runs the configured MCP servers in the background. Start returns at once; each
// server starts on its own goroutine, bounded by its startup timeout, and its tools join the
// registry when it is ready (meanwhile the registry reports it pending). A server that dies is
// restarted once per session, then marked failed. Close stops them all, and no child process
// outlives it. All methods are safe for concurrent use.
type Manager struct {
	reg     *tools.Registry
	dir     string
	logDir  string
	env     environ
	version string

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	changed chan struct{} // holds a token when something changed since the last Next
	closed  chan struct{} // closed by Close
	settled chan struct{} // closed once no server is starting for the first time

	mu         sync.Mutex
	servers    []*server      // the enabled servers, by name
	disabled   []ServerStatus // the servers configured with enabled = false, by name
	sessions   map[*server]*sdk.ClientSession
	notices    []string
	logs       map[string]*os.File
	isClosed   bool
	wasSettled bool
}

// Start starts every enabled server of cfg in the background. cfg must have passed Check.
func Start(cfg Config, o Options) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{
		reg: o.Registry, dir: o.Dir, logDir: o.LogDir, version: o.Version,
		ctx: ctx, cancel: cancel,
		changed: make(chan struct{}, 1), closed: make(chan struct{}), settled: make(chan struct{}),
		sessions: map[*server]*sdk.ClientSession{}, logs: map[string]*os.File{},
	}
	// The servers read the environment by the rules in force before their own credentials
	// became secrets of the run: each gets its own.
	providerSecrets, hiddenEnv := o.Registry.Secrets.With(), slices.Clone(o.Registry.HiddenEnv)
	m.env = environ{lookup: o.Lookup, secrets: providerSecrets, hidden: func(name string) bool {
		return slices.Contains(hiddenEnv, name)
	}}
	if m.env.lookup == nil {
		m.env.lookup = os.LookupEnv
	}
	registerSecrets(cfg, o.Registry, m.env.lookup)
	if m.version == "" {
		m.version = "dev"
	}
	for _, name := range sortedNames(cfg) {
		if sc := cfg[name]; sc.IsEnabled() {
			m.servers = append(m.servers, &server{name: name, cfg: sc, m: m, state: StateStarting})
		} else {
			m.disabled = append(m.disabled, ServerStatus{Name: name, Transport: sc.transport(), State: StateDisabled})
		}
	}
	for _, s := range m.servers {
		m.reg.ExpectGroup(s.group())
	}
	m.mu.Lock()
	m.checkSettledLocked()
	m.mu.Unlock()
	m.signal()
	for _, s := range m.servers {
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			s.run(ctx)
		}()
	}
	return m
}

// Close stops every server and waits until each child process is gone. Servers get a moment
// to exit after their stdin closes, then their process groups are killed.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.isClosed {
		m.mu.Unlock()
		return nil
	}
	m.isClosed = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		if s.state != StateFailed {
			s.state = StateStopped
		}
		m.reg.DropGroup(s.group())
	}
	var firstErr error
	for _, f := range m.logs {
		if err := f.Close(); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	close(m.closed)
	m.checkSettledLocked()
	return firstErr
}

// Update is what changed for the front end: the footer's text and notices to show once.
type Update struct {
	Footer  string   // e.g. "MCP 2/3"; "" when no server is configured
	Notices []string // each a line or a few, for the transcript
}

// Next waits for a change since the last Next (the first call returns at once) and
// reports it; false once the manager is closed. Meant for one reader: a front end's loop.
func (m *Manager) Next() (Update, bool) {
	select {
	case <-m.changed:
	case <-m.closed:
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.isClosed {
		return Update{}, false
	}
	u := Update{Footer: m.footerLocked(), Notices: m.notices}
	m.notices = nil
	return u, true
}

// Settled is closed once every server has left the starting state at least once (ready
// or failed), or the manager closed.
func (m *Manager) Settled() <-chan struct{} { return m.settled }

// ServerStatus is one server as `phasechat mcp list` shows it.
type ServerStatus struct {
	Name      string
	Transport string // "stdio" or "http"
	State     State
	Reason    string // why it failed
	Tools     []ToolInfo
	Missing   []string // names its tools = [...] gives that the server does not have
}

// missingText is the warning for the names a server's tools = [...] gives that it does not
// have (untrusted: the config's own words, sanitised where shown).
func missingText(names []string) string {
	return fmt.Sprintf("its tools = [...] names %s %s that it does not have.",
		format.Plural(len(names), "a tool", "tools"), strings.Join(names, ", "))
}

// ToolInfo is one offered tool.
type ToolInfo struct {
	Name       string // as the model calls it
	ServerTool string // as the server calls it
	ReadOnly   bool   // annotated readOnlyHint
	Asks       bool   // the chat asks before running it
	Bytes      int    // size of its definition in a request
}

// DefinitionBytes is the size of a server's tool definitions in every request.
func (s ServerStatus) DefinitionBytes() int {
	n := 0
	for _, t := range s.Tools {
		n += t.Bytes
	}
	return n
}

// EstimatedTokens estimates the tokens of n bytes of tool definitions: bytes/4, rounded up.
func EstimatedTokens(n int) int { return budget.EstimateTokens(n) }

// Status reports every configured server, by name: the disabled ones as StateDisabled.
func (m *Manager) Status() []ServerStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ServerStatus, len(m.servers), len(m.servers)+len(m.disabled))
	for i, s := range m.servers {
		out[i] = ServerStatus{Name: s.name, Transport: s.cfg.transport(), State: s.state, Reason: s.reason,
			Tools: append([]ToolInfo(nil), s.tools...), Missing: slices.Clone(s.missing)}
	}
	out = append(out, m.disabled...)
	slices.SortFunc(out, func(a, b ServerStatus) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (m *Manager) signal() {
	select {
	case m.changed <- struct{}{}:
	default:
	}
}

func (m *Manager) footerLocked() string {
	if len(m.servers) == 0 {
		return ""
	}
	ready := 0
	for _, s := range m.servers {
		if s.state == StateReady {
			ready++
		}
	}
	return fmt.Sprintf("MCP %d/%d", ready, len(m.servers))
}

func (m *Manager) checkSettledLocked() {
	if m.wasSettled {
		return
	}
	for _, s := range m.servers {
		if s.state == StateStarting && !m.isClosed {
			return
		}
	}
	m.wasSettled = true
	close(m.settled)
}

// list asks the server for its tools and puts them into the registry; the server is ready.
func (m *Manager) list(ctx context.Context, s *server, cs *sdk.ClientSession) error {
	var listed []*sdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing its tools: %s", errorText(err))
		}
		listed = append(listed, t)
	}
	ts, infos, keys, skipped := s.toolsOf(listed, cs)
	missing := s.missingTools(listed)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.isClosed || ctx.Err() != nil {
		return ctx.Err()
	}
	if err := m.reg.SetGroup(s.group(), ts); err != nil {
		return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "tools: "))
	}
	for _, sk := range skipped {
		m.notices = append(m.notices, fmt.Sprintf("MCP server %s: tool %s is not offered.", s.name, sk))
	}
	if len(missing) > 0 && !slices.Equal(missing, s.missing) {
		m.notices = append(m.notices, fmt.Sprintf("MCP server %s: %s", s.name, missingText(missing)))
	}
	s.missing = missing
	changed := 0
	for tool, key := range keys {
		if old, ok := s.keys[tool]; ok && old != key {
			changed++
		}
	}
	if changed > 0 {
		m.notices = append(m.notices, fmt.Sprintf("MCP server %s changed what %d of its tools declare about themselves; they will be asked about again.", s.name, changed))
	}
	s.keys, s.tools, s.state, s.reason = keys, infos, StateReady, ""
	m.sessions[s] = cs
	m.checkSettledLocked()
	m.signal()
	return nil
}

// relist reads a server's tools again after it said they changed.
func (m *Manager) relist(s *server) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cs := m.sessions[s]
	if cs == nil || m.isClosed {
		return
	}
	m.wg.Add(1) // before Close can wait: it sets isClosed under the same lock first
	go func() {
		defer m.wg.Done()
		ctx, cancel := context.WithTimeout(m.ctx, s.cfg.Startup())
		defer cancel()
		if err := m.list(ctx, s, cs); err != nil && ctx.Err() == nil {
			m.note(fmt.Sprintf("MCP server %s: its tools changed, but %s; the previous list stays.", s.name, err))
		}
	}()
}

func (m *Manager) note(text string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.notices = append(m.notices, text)
	m.signal()
}

// failed marks a server failed for the rest of the session.
func (m *Manager) failed(s *server, why string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.markFailedLocked(s, why, fmt.Sprintf("MCP server %s failed to start: %s", s.name, why))
}

func (m *Manager) markFailedLocked(s *server, why, notice string) {
	s.state, s.reason, s.tools = StateFailed, why, nil
	delete(m.sessions, s)
	m.reg.DropGroup(s.group())
	m.notices = append(m.notices, notice)
	m.checkSettledLocked()
	m.signal()
}

// restarting decides what happens to a server that died: the first time it is restarted
// (true); the second time it is marked failed (false).
func (m *Manager) restarting(s *server, why string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, s)
	if s.restarts >= 1 {
		m.markFailedLocked(s, why, fmt.Sprintf("MCP server %s stopped again (%s); it is marked failed and its tools are gone for this session.", s.name, why))
		return false
	}
	s.restarts++
	s.state, s.tools = StateStarting, nil
	m.reg.DropGroup(s.group())
	m.reg.ExpectGroup(s.group())
	m.notices = append(m.notices, fmt.Sprintf("MCP server %s stopped (%s); restarting it once.", s.name, why))
	m.signal()
	return true
}

// logFor is where a server's stderr goes: LogDir/NAME.log, truncated at its first start in
// this session and kept (mode 0600) across a restart. nil when there is no log directory, or
// when that path is refused (a link, a FIFO, a file with other hard links: a notice says so).
func (m *Manager) logFor(name string) io.Writer {
	if m.logDir == "" {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if f := m.logs[name]; f != nil {
		return f
	}
	if err := os.MkdirAll(m.logDir, 0o700); err != nil {
		return nil
	}
	f, err := safefile.Create(filepath.Join(m.logDir, name+".log"))
	if err != nil {
		m.notices = append(m.notices, fmt.Sprintf("MCP server %s: its stderr is not logged: %v", name, err))
		return nil
	}
	fmt.Fprintf(f, "[phasechat: stderr of MCP server %s, %s]\n", name, time.Now().Format(time.RFC3339))
	m.logs[name] = f
	return f
}

// DefaultLogDir is where the chat keeps MCP servers' stderr logs: phasechat/mcp in the
// user's cache directory.
func DefaultLogDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "phasechat", "mcp")
}
