package tools

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/reaper"
	"github.com/phasechat/phasechat/internal/secret"
)

// pipeGrace is how long a finished command's output pipe may stay open after its process
// group was killed: only a process that left the group (setsid) can hold it that long.
const pipeGrace = time.Second

// runCommand runs a command tool in r.root. The program is started directly, never through a
// shell; the arguments JSON is its stdin, then EOF, so it never sees the user's terminal (the
// intent of T4's "stdin is /dev/null"). stdout and stderr are captured together, capped. The
// command leads a new process group; when runCtx ends (timeout or ctx) the whole group is
// killed, and when the leader exits any process it left in the group is killed too.
func (r *Registry) runCommand(ctx, runCtx context.Context, t *Tool, stdin string) Result {
	out := newHeadTail(r.maxOutput())
	marker, err := reaper.NewMark()
	if err != nil {
		return Result{Outcome: OutcomeFailed, ExitCode: -1, Output: fmt.Sprintf("could not start %s: %v", t.name, err)}
	}
	var sink io.Writer = out
	if w := r.watcherFor(ctx); w != nil {
		sink = io.MultiWriter(out, w)
	}
	watch := reaper.Start(marker) // ends the run should we die before it is over
	defer watch.End()
	p, err := startCommand(t.argv, r.root, stdin, append(r.childEnv(os.Environ()), marker), sink)
	if err != nil {
		return Result{Outcome: OutcomeFailed, ExitCode: -1, Output: fmt.Sprintf("could not start %s: %v", t.name, err)}
	}
	watch.Group(p.cmd.Process.Pid)
	p.marker = marker
	killed, leftover := p.wait(runCtx)
	output := out.String()
	if killed {
		if res, ok := interrupted(ctx, runCtx, t, output); ok {
			return res
		}
	}
	switch {
	case leftover:
		output += fmt.Sprintf("\n[%s left a background process holding its output open; it was cut off]", t.name)
	case p.escaped > 0 && !killed:
		output += fmt.Sprintf("\n[%s left %d %s running outside its process group; ended]", t.name, p.escaped, format.Plural(p.escaped, "background process", "background processes"))
	}
	state := p.cmd.ProcessState
	if state == nil { // Wait failed without reaping: something else reaped the child
		return Result{Outcome: OutcomeFailed, ExitCode: -1, Output: output + fmt.Sprintf("\n[%s: its exit status is unknown]", t.name)}
	}
	if state.Success() {
		if output == "" {
			output = "(no output)"
		}
		return Result{Outcome: OutcomeOK, Output: output}
	}
	if output != "" {
		output += "\n"
	}
	return Result{Outcome: OutcomeFailed, ExitCode: state.ExitCode(),
		Output: fmt.Sprintf("%s[%s failed: %s]", output, t.name, state)}
}

// process is a started command and the goroutines that feed and drain it.
type process struct {
	marker  string // the variable (name=value) only this run's processes have in their environment
	escaped int    // how many of them had left the process group when the run ended
	cmd     *exec.Cmd
	stdinW  *os.File
	outR    *os.File
	fed     chan struct{} // closed when the stdin writer is done
	copied  chan struct{} // closed when the output reader is done
}

func startCommand(argv []string, dir, stdin string, env []string, out io.Writer) (*process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	setProcessGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	// Files, not writers: the child gets the descriptors themselves and Wait copies nothing,
	// so Wait returns when the leader exits whoever else holds the pipes.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	p := &process{cmd: cmd, stdinW: inW, outR: outR, fed: make(chan struct{}), copied: make(chan struct{})}
	go func() {
		defer close(p.fed)
		io.WriteString(inW, stdin) // fails harmlessly if the command never reads it
		inW.Close()
	}()
	go func() {
		defer close(p.copied)
		io.Copy(out, outR)
	}()
	return p, nil
}

// wait waits for the leader to exit, killing the group first if runCtx ends, then kills what
// is left of the group and drains the output. It reports whether it killed the leader and
// whether the output pipe had to be cut off.
func (p *process) wait(runCtx context.Context) (killed, leftover bool) {
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		p.cmd.Wait()
	}()
	select {
	case <-exited:
	case <-runCtx.Done():
		killTree(p.cmd.Process)
		<-exited
		killed = p.cmd.ProcessState == nil || !p.cmd.ProcessState.Exited() // it may have exited by itself meanwhile
	}
	killGroup(p.cmd.Process)
	p.escaped = reaper.KillMarked(p.marker, p.cmd.Process.Pid)
	grace := time.NewTimer(pipeGrace)
	defer grace.Stop()
	select {
	case <-p.copied:
	case <-grace.C:
		leftover = true
		p.outR.Close() // unblocks the reader
		<-p.copied
	}
	p.stdinW.Close() // unblocks a writer stuck on a pipe nobody reads
	<-p.fed
	p.outR.Close()
	return killed, leftover
}

// RunMarkerEnv is the variable that marks every process of one run of a command tool: each run
// sets it to a value of its own, which the processes the command starts inherit, so that the
// run's end finds and kills those that left its process group and its process tree.
const RunMarkerEnv = reaper.MarkEnv

// ProviderEnv names the variables that carry provider credentials; a command never gets them.
var ProviderEnv = []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AZURE_OPENAI_API_KEY", "OPENROUTER_API_KEY",
	"GROQ_API_KEY", "MISTRAL_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "DEEPSEEK_API_KEY", "XAI_API_KEY"}

// childEnv is the environment of command tools: env without the provider key variables (those
// of ProviderEnv and r.HiddenEnv), without any variable whose value holds a secret, and with
// the credentials taken out of OPENAI_BASE_URL.
func (r *Registry) childEnv(env []string) []string {
	hidden := map[string]bool{}
	for _, name := range append(slices.Clone(ProviderEnv), r.HiddenEnv...) {
		hidden[name] = true
	}
	kept := make([]string, 0, len(env))
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case hidden[name] || name == RunMarkerEnv:
			continue
		case name == "OPENAI_BASE_URL" || name == "ANTHROPIC_BASE_URL":
			kv = name + "=" + withoutCredentials(value)
		}
		if r.Secrets.Contains(kv) {
			continue
		}
		kept = append(kept, kv)
	}
	return kept
}

// withoutCredentials is a URL without its user info and key-like query parameters.
func withoutCredentials(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User = nil
	q := u.Query()
	for name := range q {
		if secret.CredentialParam(name) {
			q.Del(name)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}
