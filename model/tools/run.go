package tools

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase"
)

// Call is one tool call as the model made it.
type Call struct {
	ID        string
	Name      string
	Arguments string // raw JSON text; blank means {}; a non-object value v means {"value": v}
	// Args is Arguments parsed (phase.ParseArgs) when the caller has parsed them already, as
	// the engine's call machine has; nil: the registry parses Arguments itself.
	Args *phase.Args
}

// Outcome says how a run ended.
type Outcome string

const (
	OutcomeOK       Outcome = "ok"        // the tool ran and succeeded
	OutcomeFailed   Outcome = "failed"    // the tool ran and failed (an error, a non-zero exit)
	OutcomeRejected Outcome = "rejected"  // it never ran: an unknown tool or invalid arguments
	OutcomeTimedOut Outcome = "timed out" // its timeout passed; it was stopped
	OutcomeStopped  Outcome = "stopped"   // the caller's context ended (the user pressed Esc)
)

// Result is what a run produced. Output is capped and already passed through Registry.Clean:
// it is the text for both the screen and the model, errors included.
type Result struct {
	CallID   string
	Name     string
	Output   string
	IsError  bool // every outcome but OutcomeOK
	Outcome  Outcome
	ExitCode int // a command's exit status; 0 for built-ins; -1 when it was killed or never started
	Duration time.Duration
}

// Run validates the call's arguments against the tool's schema and, only if they are valid,
// runs the tool, bounded by its timeout and by ctx. Every failure comes back as a Result the
// model can read, never as a panic or a hang. Run is safe for concurrent use; calls run in
// parallel. It panics if r.Clean is nil.
func (r *Registry) Run(ctx context.Context, call Call) Result {
	r.running.Add(1)
	defer r.running.Done()
	start := time.Now()
	res := r.run(ctx, call)
	res.CallID, res.Name = call.ID, call.Name
	res.IsError = res.Outcome != OutcomeOK
	res.Output = r.clean(res.Output)
	res.Duration = time.Since(start)
	return res
}

func (r *Registry) run(ctx context.Context, call Call) Result {
	t, stdin, args, problem := r.decode(call)
	if problem != "" {
		return Result{Outcome: OutcomeRejected, ExitCode: -1, Output: problem}
	}
	if ctx.Err() != nil {
		return Result{Outcome: OutcomeStopped, ExitCode: -1, Output: t.name + " was stopped by the user before it started"}
	}
	release, ok := r.acquire(ctx)
	if !ok {
		return Result{Outcome: OutcomeStopped, ExitCode: -1, Output: t.name + " was stopped by the user before it started"}
	}
	defer release()
	runCtx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	if t.builtin != nil {
		out, err := runBuiltin(runCtx, r, t, args)
		if err != nil {
			if res, stopped := interrupted(ctx, runCtx, t, ""); stopped {
				return res
			}
			return Result{Outcome: OutcomeFailed, Output: err.Error()}
		}
		return Result{Outcome: OutcomeOK, Output: capText(out, maxBuiltinOutput)}
	}
	if t.external != nil {
		return r.runExternal(ctx, runCtx, t, stdin)
	}
	return r.runCommand(ctx, runCtx, t, stdin)
}

// Check decodes the call's arguments and validates them against the tool's schema, without
// running anything: it returns the rejection Run would give (sanitised), or "" when the call
// can run. Ask for approval only for calls that pass.
func (r *Registry) Check(call Call) string {
	if _, _, _, problem := r.decode(call); problem != "" {
		return r.clean(problem)
	}
	return ""
}

// decode finds the call's tool and decodes and validates its arguments; problem says, for the
// model, why it cannot run.
func (r *Registry) decode(call Call) (t *Tool, stdin string, args map[string]any, problem string) {
	t = r.lookup(call.Name)
	if t == nil {
		problem = fmt.Sprintf("unknown tool %q; available: %s",
			truncateRunes(call.Name, 64), strings.Join(r.Names(), ", "))
		if pending := r.Pending(); len(pending) > 0 {
			problem += fmt.Sprintf("; still starting, their tools not available yet: %s", strings.Join(pending, ", "))
		}
		return nil, "", nil, problem
	}
	parsed, err := callArgs(call)
	if err == nil {
		parsed = redactArgs(r.Secrets, parsed)
		err = t.schema.validate(parsed.Object)
	}
	if err != nil {
		return t, "", nil, fmt.Sprintf("invalid arguments for %s: %v", t.name, err)
	}
	return t, parsed.JSON, parsed.Object, ""
}

// interrupted reports whether the run was cut short, by the user (ctx) or by the timeout
// (runCtx), and the Result that says so, followed by any output captured before.
func interrupted(ctx, runCtx context.Context, t *Tool, partial string) (Result, bool) {
	var msg string
	var outcome Outcome
	switch {
	case ctx.Err() != nil:
		msg, outcome = t.name+" was stopped by the user", OutcomeStopped
	case runCtx.Err() != nil:
		msg, outcome = fmt.Sprintf("%s timed out after %s and was stopped", t.name, format.WrittenDuration(t.timeout)), OutcomeTimedOut
	default:
		return Result{}, false
	}
	if partial != "" {
		msg += "; its output until then:\n" + partial
	}
	return Result{Outcome: outcome, ExitCode: -1, Output: msg}, true
}

// runBuiltin runs a built-in in its own goroutine and returns when it does or when runCtx
// ends, whichever is first: a built-in stuck in a system call that ignores the context (an
// open on a hung file system) cannot hold the turn past its timeout. Such a goroutine finishes
// on its own once the call returns; its answer is dropped.
func runBuiltin(runCtx context.Context, r *Registry, t *Tool, args map[string]any) (string, error) {
	type answer struct {
		out string
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := t.builtin(runCtx, r, args)
		done <- answer{out, err}
	}()
	select {
	case a := <-done:
		return a.out, a.err
	case <-runCtx.Done():
		return "", runCtx.Err()
	}
}

// DefaultMaxParallel is how many tools run at once when Registry.MaxParallel is 0: the number
// of CPUs, at least 4.
func DefaultMaxParallel() int { return max(runtime.NumCPU(), 4) }

// acquire waits for one of the registry's run slots (MaxParallel of them); the tool's timeout
// starts only once it has one. It reports false, holding nothing, if ctx ends first.
func (r *Registry) acquire(ctx context.Context) (release func(), ok bool) {
	r.slotsOnce.Do(func() {
		n := r.MaxParallel
		if n <= 0 {
			n = DefaultMaxParallel()
		}
		r.slots = make(chan struct{}, n)
	})
	select {
	case r.slots <- struct{}{}:
		return func() { <-r.slots }, true
	case <-ctx.Done():
		return nil, false
	}
}

// Wait returns once every Run in progress has returned (a stopped tool's processes are then
// gone). Runs started meanwhile are waited for too.
func (r *Registry) Wait() { r.running.Wait() }
