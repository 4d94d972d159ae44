package e2e

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/phase"
)

// crashKind is a moment to kill phasechat at: a run of model (in wire) and what must be seen
// before the kill.
type crashKind struct {
	name, model, wire string
	// tool: the run starts a command tool that never ends; the kill comes while it runs.
	tool bool
	// mcp: the run calls an MCP stdio server's tool that never ends; the kill comes while it
	// runs.
	mcp bool
	// tokens: the kill comes once this many streamed words are on screen (a seeded number
	// from 1 to tokens); 0: once the request is in the log.
	tokens int
	// thoughts: the kill comes once the log holds this many words of the reply's reasoning (a
	// seeded number from 1 to thoughts).
	thoughts int
}

// runsTool reports whether the kill comes while a tool runs.
func (k crashKind) runsTool() bool { return k.tool || k.mcp }

var crashKinds = []crashKind{
	{name: "mid-text", model: "slow-drip", tokens: 12},
	{name: "mid-tool-arguments", model: "stall-between-tool-chunks"},
	{name: "mid-tool-arguments-anthropic", model: "anthropic-stall-between-tool-chunks", wire: "anthropic"},
	{name: "mid-tool-arguments-responses", model: "responses-stall-between-tool-chunks", wire: "responses"},
	{name: "while-a-command-tool-runs", model: "slow", tool: true},
	{name: "mid-reasoning", model: "slow-reasoning", thoughts: 12},
	{name: "mid-reasoning-anthropic", model: "slow-reasoning", wire: "anthropic", thoughts: 12},
	{name: "while-an-mcp-tool-runs", model: "slow-mcp", mcp: true},
}

// crashRounds is how many kills each kind gets: 1, or PHASECHAT_CRASH_KILLS (6 makes 30).
func crashRounds(t *testing.T) int {
	n, err := strconv.Atoi(os.Getenv("PHASECHAT_CRASH_KILLS"))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// phasechat killed with SIGKILL at seeded moments leaves a log that holds every word that
// was on screen, marks the reply interrupted, leaves no process behind, and resumes with
// --continue -p into a history a strict server accepts.
func TestKilledAtAnyMomentResumesExactly(t *testing.T) {
	bin := buildPhasechat(t)
	srv := newServer(t, fixtures.Options{}, map[string]string{"slow": oneCall("slow", "hold", "{}"),
		"slow-mcp": oneCall("slow-mcp", "hold__block", "{}")})
	paced := newServer(t, fixtures.Options{Pace: 1}, nil) // slow-drip in real time: a word every 200ms
	seed := uint64(1)
	if s, err := strconv.ParseUint(os.Getenv("PHASECHAT_CRASH_SEED"), 10, 64); err == nil {
		seed = s
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	for _, kind := range crashKinds {
		for round := range crashRounds(t) {
			t.Run(fmt.Sprintf("%s/%d", kind.name, round), func(t *testing.T) {
				on := srv
				if kind.tokens > 0 || kind.thoughts > 0 {
					on = paced
				}
				killAndResume(t, bin, on, kind, 1+rng.IntN(max(kind.tokens, kind.thoughts, 1)))
			})
		}
	}
}

func killAndResume(t *testing.T, bin string, srv *server, kind crashKind, words int) {
	dir := t.TempDir()
	tag := fmt.Sprintf("%s=%d-%s", orphanTagEnv, os.Getpid(), t.Name())
	env := append(os.Environ(), tag, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_CACHE_HOME="+dir,
		"OPENAI_API_KEY=", "OPENAI_BASE_URL=")
	args := []string{"-p", "go", "--base-url", srv.URL, "--model", kind.model}
	if kind.wire != "" {
		args = append(args, "--wire", kind.wire)
	}
	if kind.tool {
		toolsFile := filepath.Join(dir, "tools.toml")
		writeFile(t, toolsFile, "[[tool]]\nname = \"hold\"\ndescription = \"Never finishes.\"\n"+
			"argv = [\"/bin/sh\", \"-c\", "+strconv.Quote("sleep 3600 & exec sleep 3600")+"]\nside_effects = true\ntimeout = \"10m\"\n")
		args = append(args, "--tools", toolsFile, "--yes")
	}
	if kind.mcp {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		mcpFile := filepath.Join(dir, "mcp.toml")
		writeFile(t, mcpFile, "[mcp.hold]\ncommand = "+strconv.Quote(self)+"\nstartup_timeout = \"10m\"\n"+
			"env = { "+blockingMCPEnv+" = "+strconv.Quote(dir)+", "+orphanTagEnv+" = \"${"+orphanTagEnv+"}\" }\n")
		args = append(args, "--mcp", mcpFile, "--yes")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var out lockedBuffer
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		for _, p := range carrying(tag, 0) {
			syscall.Kill(p, syscall.SIGKILL)
		}
	})
	var shown string
	switch {
	case kind.tokens > 0:
		testwait.Until(t, func() bool { return strings.Count(out.String(), "drip") >= words },
			"%d words never showed (stderr: %s)", words, &stderr)
		shown = out.String()
	case kind.tool:
		testwait.Until(t, func() bool { return len(carrying(tag, cmd.Process.Pid)) >= 2 },
			"the tool never started (stderr: %s)", &stderr)
	case kind.mcp:
		testwait.Until(t, func() bool { _, err := os.Stat(filepath.Join(dir, "running")); return err == nil },
			"the MCP tool never started (stderr: %s)", &stderr)
	}
	// What is shown reaches the log within its flush interval: wait for it, then kill.
	testwait.Until(t, func() bool {
		log, ok := readCrashLog(dir)
		return ok && inFlightHolds(log, shown, kind.runsTool()) && thoughtsHeld(log, words, kind)
	}, "the log never held what was shown (%q)", shown)
	var thought string // the reasoning the log held before the kill
	if kind.thoughts > 0 {
		log, _ := readCrashLog(dir)
		thought = log.Messages[1].Reasoning()
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	testwait.Until(t, func() bool { return len(carrying(tag, 0)) == 0 },
		"processes phasechat started outlived it: %v", carrying(tag, 0))

	log, _ := readCrashLog(dir)
	if !inFlightHolds(log, shown, kind.runsTool()) || !strings.HasPrefix(log.Messages[1].Reasoning(), thought) {
		t.Fatalf("after the kill the log lost what was shown: %+v", log.Messages)
	}
	reply := log.Messages[1]
	if reply.End.Why != phase.EndCrashed {
		t.Fatalf("the reply is not marked interrupted: %+v", reply)
	}
	if kind.runsTool() && (len(log.Messages) != 3 || log.Messages[2].Text() != "outcome unknown: phasechat stopped while it ran") {
		t.Fatalf("the running tool's result: %+v", log.Messages)
	}

	show := exec.Command(bin, "sessions", "show", strings.TrimSuffix(filepath.Base(crashLogPath(dir)), ".jsonl"))
	show.Dir, show.Env = dir, env
	if text, err := show.CombinedOutput(); err != nil || !strings.Contains(string(text), "interrupted: phasechat stopped unexpectedly") {
		t.Fatalf("sessions show: %v\n%s", err, text)
	}
	resume := exec.Command(bin, "--continue", "-p", "go on", "--base-url", srv.URL, "--model", "strict-history")
	resume.Dir, resume.Env = dir, env
	if text, err := resume.CombinedOutput(); err != nil || !strings.Contains(string(text), "Accepted.") {
		t.Fatalf("--continue -p after the kill: %v\n%s\nsent: %s", err, text, srv.Last(t).Raw)
	}
}

// inFlightHolds reports whether log reads back as the prompt and a reply cut short whose text
// begins with shown (and, for a tool, whose call has its answer).
func inFlightHolds(log sessionlog.Log, shown string, tool bool) bool {
	if len(log.Messages) < 2 || log.Messages[1].Role != "assistant" {
		return false
	}
	if tool && !log.Messages[1].HasCalls() {
		return false
	}
	return strings.HasPrefix(log.Messages[1].Text(), strings.TrimSpace(shown))
}

// thoughtsHeld reports whether, for a kill mid-reasoning, the log's reply holds reasoning of
// at least words words.
func thoughtsHeld(log sessionlog.Log, words int, kind crashKind) bool {
	return kind.thoughts == 0 || strings.Count(log.Messages[1].Reasoning(), "think") >= words
}

// crashLogPath is the one session log in dir's data folder; "" while there is none.
func crashLogPath(dir string) string {
	var found string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") && filepath.Base(filepath.Dir(path)) == "sessions" &&
			d.Name() != "index.jsonl" {
			found = path
		}
		return nil
	})
	return found
}

func readCrashLog(dir string) (sessionlog.Log, bool) {
	path := crashLogPath(dir)
	if path == "" {
		return sessionlog.Log{}, false
	}
	log, err := sessionlog.Read(path)
	return log, err == nil
}

// lockedBuffer is a bytes.Buffer a process writes to while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
