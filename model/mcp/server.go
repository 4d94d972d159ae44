package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/safefile"
	"github.com/phasechat/phasechat/model/tools"
)

// State is where a server is in its life.
type State string

const (
	StateStarting State = "starting"
	StateReady    State = "ready"
	StateFailed   State = "failed"
	StateStopped  State = "stopped"  // the manager was closed
	StateDisabled State = "disabled" // configured with enabled = false: never started
)

// stderrLines is how many of a failed server's last stderr lines a notice quotes.
const stderrLines = 5

// server runs one configured server: it starts or connects, lists its tools into the
// registry, watches the connection, restarts it once if it dies, and stops it on Close.
// Its mutable fields belong to the manager's lock.
type server struct {
	name string
	cfg  Server
	m    *Manager

	state    State
	reason   string     // why it failed
	tools    []ToolInfo // as last listed
	restarts int
	keys     map[string]string // the server's tool name → approval key as last listed
	missing  []string          // names its tools = [...] gives that it did not list, as last listed

	// oversized is set when an HTTP answer was refused for passing MaxMessageSize, so the
	// call that then fails says why; it is read and cleared without the lock.
	oversized atomic.Bool
}

// missingTools is the names of the server's tools = [...] that listed does not hold, in the
// order they are configured.
func (s *server) missingTools(listed []*sdk.Tool) []string {
	var missing []string
	for _, name := range s.cfg.Tools {
		if !slices.ContainsFunc(listed, func(t *sdk.Tool) bool { return t.Name == name }) {
			missing = append(missing, name)
		}
	}
	return missing
}

// group is the registry group of the server's tools, as a notice names it.
func (s *server) group() string { return "MCP server " + s.name }

// session is one connection to the server, and the child process behind it for stdio.
type session struct {
	cs    *sdk.ClientSession
	child *child // nil for HTTP
	http  *headerTransport
}

func (ss *session) close(ctx context.Context) {
	if ss.cs != nil {
		ss.cs.Close()
	}
	if ss.child != nil {
		ss.child.stop(ctx)
	}
	if ss.http != nil {
		ss.http.base.CloseIdleConnections()
	}
}

// run is the server's goroutine. It returns when ctx ends (the manager closes) or the
// server has failed for good; either way nothing of it is left running.
func (s *server) run(ctx context.Context) {
	for {
		ss, err := s.start(ctx)
		if ctx.Err() != nil {
			if ss != nil {
				ss.close(context.Background())
			}
			return
		}
		if err != nil {
			s.m.failed(s, err.Error())
			return
		}
		died := make(chan struct{})
		go func() {
			ss.cs.Wait()
			close(died)
		}()
		select {
		case <-ctx.Done():
			ss.close(context.Background())
			<-died
			return
		case <-died:
		}
		why := s.deathReason(ss)
		ss.close(ctx)
		if ctx.Err() != nil {
			return
		}
		if !s.m.restarting(s, why) {
			return
		}
	}
}

// start starts (or connects to) the server, initialises the session and registers its
// tools, all within the startup timeout.
func (s *server) start(ctx context.Context) (*session, error) {
	startCtx, cancel := context.WithTimeout(ctx, s.cfg.Startup())
	defer cancel()
	ss := &session{}
	var transport sdk.Transport
	if s.cfg.Command != "" {
		env, err := childEnv(s.cfg, s.m.env)
		if err != nil {
			return nil, err
		}
		ch, err := startChild(append([]string{s.cfg.Command}, s.cfg.Args...), s.m.dir, env, s.m.logFor(s.name))
		if err != nil {
			return nil, &startError{msg: fmt.Sprintf("could not start %s: %v", s.cfg.Command, err)}
		}
		ss.child, transport = ch, ch.transport()
	} else {
		ht, err := newHeaderTransport(s.cfg, s.m.env)
		if err != nil {
			return nil, err
		}
		ht.oversized = &s.oversized
		ss.http = ht
		transport = &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: ht.client(), MaxRetries: 2}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "phasechat", Version: s.m.version}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { s.m.relist(s) },
	})
	cs, err := client.Connect(startCtx, transport, nil)
	if err != nil {
		ss.close(ctx)
		return nil, s.startFailure(startCtx, ss, err)
	}
	ss.cs = cs
	if err := s.m.list(startCtx, s, cs); err != nil {
		ss.close(ctx)
		return nil, s.startFailure(startCtx, ss, err)
	}
	return ss, nil
}

// startFailure words why a start failed, quoting the server's last stderr lines.
func (s *server) startFailure(startCtx context.Context, ss *session, err error) error {
	var msg string
	switch {
	case ss.http != nil && ss.http.authStatus() != 0 && ss.http.sentAuth:
		msg = fmt.Sprintf("the server rejected the credentials (HTTP %d); check the token in headers or bearer_token_env", ss.http.authStatus())
	case ss.http != nil && ss.http.authStatus() != 0:
		msg = fmt.Sprintf("the server demands authorization (HTTP %d); phasechat does not do OAuth sign-in: give a token with bearer_token_env or headers", ss.http.authStatus())
	case errors.Is(startCtx.Err(), context.DeadlineExceeded):
		msg = fmt.Sprintf("no answer to initialize within %s (startup_timeout)", format.WrittenDuration(s.cfg.Startup()))
	case ss.child != nil && exitedEarly(ss.child):
		msg = "it exited: " + ss.child.cmd.ProcessState.String()
	case ss.http != nil && unreached(err) != "":
		msg = "could not connect to " + format.Endpoint(s.cfg.URL) + ": " + unreached(err)
	default:
		msg = errorText(err)
	}
	return &startError{msg: msg, stderr: stderrOf(ss)}
}

func (s *server) deathReason(ss *session) string {
	if ss.child != nil {
		select {
		case <-ss.child.exited:
			return "it exited: " + ss.child.cmd.ProcessState.String()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return "the connection closed"
}

func exitedEarly(c *child) bool {
	select {
	case <-c.exited:
		return c.cmd.ProcessState != nil
	case <-time.After(200 * time.Millisecond):
		return false
	}
}

func stderrOf(ss *session) []string {
	if ss.child == nil {
		return nil
	}
	waitFor(ss.child.copied, 200*time.Millisecond, context.Background())
	return ss.child.stderr.lastLines(stderrLines)
}

// startError is why a server failed to start, with its last stderr lines.
type startError struct {
	msg    string
	stderr []string
}

func (e *startError) Error() string {
	if len(e.stderr) == 0 {
		return e.msg
	}
	return e.msg + "; its last stderr lines:\n" + strings.Join(e.stderr, "\n")
}

// toolsOf turns a tools/list answer into registry tools, applying the allow-list and the
// approval policy. Tools whose names or schemas cannot be offered are skipped, each with a
// reason.
func (s *server) toolsOf(listed []*sdk.Tool, cs *sdk.ClientSession) ([]tools.Tool, []ToolInfo, map[string]string, []string) {
	if len(s.cfg.Tools) > 0 {
		listed = slices.DeleteFunc(slices.Clone(listed), func(t *sdk.Tool) bool { return !slices.Contains(s.cfg.Tools, t.Name) })
	}
	slices.SortStableFunc(listed, func(a, b *sdk.Tool) int { return strings.Compare(a.Name, b.Name) })
	count := map[string]int{}
	for _, t := range listed {
		count[ToolName(s.name, t.Name)]++
	}
	var out []tools.Tool
	var infos []ToolInfo
	var skipped []string
	keys := map[string]string{}
	for _, t := range listed {
		name := ToolName(s.name, t.Name)
		if count[name] > 1 {
			name = distinctName(s.name, t.Name)
		}
		params, err := json.Marshal(t.InputSchema)
		if err != nil || t.InputSchema == nil {
			params = nil
		}
		readOnly := t.Annotations != nil && t.Annotations.ReadOnlyHint
		asks := !readOnly
		switch s.cfg.Approval() {
		case ApproveAlways:
			asks = true
		case ApproveNever:
			asks = false
		}
		key := annotationKey(t.Annotations)
		keys[t.Name] = key
		tool, err := tools.NewExternal(tools.External{
			Name: name, Description: t.Description, Parameters: params, SideEffects: asks,
			ApprovalKey: key, Timeout: s.cfg.CallLimit(), Call: s.callFunc(cs, t.Name),
		})
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", format.OneLine(t.Name, maxServerName), strings.TrimPrefix(err.Error(), "tools: ")))
			continue
		}
		def, _ := json.Marshal(tools.Definition{Name: name, Description: t.Description, Parameters: params})
		out = append(out, tool)
		infos = append(infos, ToolInfo{Name: name, ServerTool: t.Name, ReadOnly: readOnly, Asks: asks, Bytes: len(def)})
	}
	return out, infos, keys, skipped
}

// annotationKey stands for a tool's annotations: a hash of their JSON, "" for none.
func annotationKey(a *sdk.ToolAnnotations) string {
	if a == nil {
		return ""
	}
	b, _ := json.Marshal(a)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// callFunc calls one of the server's tools over cs. When ctx ends the SDK sends the
// protocol's cancellation notice and abandons the call; its late answer is dropped. A call
// failing after an answer was refused for its size says so.
func (s *server) callFunc(cs *sdk.ClientSession, tool string) tools.ExternalFunc {
	return func(ctx context.Context, args json.RawMessage) (string, bool, error) {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil && s.oversized.Swap(false) {
			return "", false, fmt.Errorf("the server's answer was larger than %s, the most phasechat reads of one answer", safefile.Size(MaxMessageSize))
		}
		if err != nil {
			return "", false, errors.New(errorText(err))
		}
		return resultText(res), res.IsError, nil
	}
}

// unreached says why a request to an HTTP server got no answer at all (nothing listening, no
// such host, the network), in words for the user; "" when err is no such failure.
func unreached(err error) string {
	var (
		dnsErr *net.DNSError
		opErr  *net.OpError
	)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (is the server running?)"
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return "no such host " + format.OneLine(dnsErr.Name, maxServerName)
	case errors.As(err, &opErr):
		return format.OneLine(opErr.Err.Error(), maxServerWords)
	}
	return ""
}

// errorText words an SDK error for the user and the model.
func errorText(err error) string {
	var werr *jsonrpc.Error
	switch {
	case errors.As(err, &werr):
		return "the server answered with an error: " + format.OneLine(werr.Message, maxServerWords)
	case errors.Is(err, sdk.ErrConnectionClosed), errors.Is(err, io.EOF):
		return "the connection to the server closed"
	}
	return format.OneLine(err.Error(), maxServerWords)
}
