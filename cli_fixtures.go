package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/ident"
	"github.com/phasechat/phasechat/model/app"
)

const fixturesUsage = `Usage:
  phasechat fixtures serve [--addr 127.0.0.1:8787] [--interval 400ms] [--dir DIR] [--log FILE] [--side NAME] [--speed 1]
  phasechat fixtures list [--dir DIR]
  phasechat fixtures body [--dir DIR] NAME

serve runs the fixture server. The request's model names the scenario; a scenario written as
moves answers in the format the path asks for, a raw one (exact bytes of one format) only
there, with an error in the path's format elsewhere:
  POST /v1/chat/completions   OpenAI Chat Completions
  POST /v1/messages           Anthropic Messages
  POST /v1/responses          OpenAI Responses
  GET  /v1/models             every scenario
  GET|POST /stream            a raw SSE body of a tool call, text and [DONE], one frame per --interval
A path with /v1 twice (/v1/v1/messages) is served as with one, and said in the log.
Every request is logged on standard output: time, path, format, model → scenario, streamed or
buffered, status, bytes, duration and how the answer ended; --log FILE also appends each as
a JSON line with the request body (keys in your environment redacted).
--dir adds the *.scenario files in DIR (for example recordings; a file's name without
.scenario is its model); files added, rewritten or removed there are served without a restart.
--side NAME answers side requests (no tools, and a system prompt asking for a title or a
summary, or a model that is no scenario) with scenario NAME, in the request's format when the
catalogue has it so (anthropic-text on /v1/messages); default text, none to answer them like
any other request.
--speed N plays every pause N times as fast: 1 is the recorded pace, 0 no pauses at all
(a stall still waits for the client to leave).
list prints every scenario with what it shows. body writes a scenario's streamed body to
standard output, for example into "phasechat replay -".
`

const recordUsage = `Usage:
  phasechat record --upstream URL --out DIR [--addr 127.0.0.1:8788] [--fault SPEC]

record is a reverse proxy to URL (for example https://api.openai.com/v1): point the chat at
http://ADDR/v1 and each answer comes back unchanged and live while it is saved in DIR. The
answers of one conversation (the same model, each request carrying more messages than the
last) make one recording, 001-<model>.scenario, which answers each request of a replay with
the answer recorded at its place in the conversation; a silence the client gave up on is
saved as a stall that lasted as long. Your API key is forwarded, never saved.
--fault SPEC makes every answer misbehave on its way to you, as your provider might, and saves
it as you got it: stall@N (nothing after the Nth event, until you give up), reset@N (the
connection cut after it), cut@N (the body ended after it, no end event), status:CODE (an
HTTP error in the API's shape without asking the upstream; 429 with Retry-After) or slow:MS
(every event MS later).
Replay the files with: phasechat fixtures serve --dir DIR
`

// paceOfSpeed is the fixture server's pace for --speed: the factor every pause is scaled by
// (1/speed; 0, no pauses, for speed 0). ok is false for a negative or non-finite speed.
func paceOfSpeed(speed float64) (pace float64, ok bool) {
	switch {
	case speed < 0 || math.IsNaN(speed) || math.IsInf(speed, 0):
		return 0, false
	case speed == 0:
		return 0, true
	}
	return 1 / speed, true
}

// untilInterrupted runs a serving command ("phasechat fixtures", "phasechat record") until
// Ctrl+C (SIGINT) or SIGTERM.
func untilInterrupted(cmd func(context.Context, []string, io.Writer, io.Writer) int, args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cmd(ctx, args, stdout, stderr)
}

func fixturesMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, fixturesUsage)
		return 2
	}
	switch args[0] {
	case "serve":
		return fixturesServe(ctx, args[1:], stdout, stderr)
	case "list":
		return fixturesList(args[1:], stdout, stderr)
	case "body":
		return fixturesBody(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, fixturesUsage)
		return 0
	}
	fmt.Fprintf(stderr, "phasechat fixtures: unknown command %q\n\n%s", args[0], fixturesUsage)
	return 2
}

// newFlags makes a flag set whose errors and usage go to stderr; parse returns the exit code
// for a bad command line (2) or -1 to go on.
func newFlags(name, usage string, stderr io.Writer) (*flag.FlagSet, func([]string) int) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	return fs, func(args []string) int {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "phasechat %s: unexpected argument %q\n\n%s", name, fs.Arg(0), usage)
			return 2
		}
		return -1
	}
}

func fixturesServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, parse := newFlags("fixtures serve", fixturesUsage, stderr)
	addr := fs.String("addr", "127.0.0.1:8787", "address to listen on (loopback unless you say otherwise)")
	interval := fs.Duration("interval", 400*time.Millisecond, "pause before each frame of /stream")
	dir := fs.String("dir", "", "also serve the *.scenario files in this folder")
	logPath := fs.String("log", "", "append each request as a JSON line to this file")
	side := fs.String("side", "text", "the scenario that answers side requests (none: answer them as any other)")
	speed := fs.Float64("speed", 1, "play pauses this many times as fast (0: no pauses)")
	if code := parse(args); code >= 0 {
		return code
	}
	pace, ok := paceOfSpeed(*speed)
	if !ok {
		fmt.Fprintln(stderr, "phasechat fixtures serve: --speed must be 0 (no pauses) or more, such as 1 or 2")
		return 2
	}
	if *interval <= 0 {
		fmt.Fprintln(stderr, "phasechat fixtures serve: --interval must be more than 0, such as 400ms")
		return 2
	}
	opts := fixtures.Options{Interval: *interval, Pace: pace, Dir: *dir, Warn: stderr, Access: stdout, Side: *side}
	if *side == "none" {
		opts.Side = ""
	}
	if *logPath != "" {
		f, err := fixtures.OpenAccessLog(*logPath)
		if err != nil {
			fmt.Fprintf(stderr, "phasechat fixtures serve: %v\n", err)
			return 1
		}
		defer f.Close()
		known := app.EnvSecrets()
		opts.Log, opts.Redact = f, known.Redact
	}
	h, err := fixtures.NewHandler(opts)
	if err != nil {
		fmt.Fprintf(stderr, "phasechat fixtures serve: %v\n", err)
		return 1
	}
	ln, err := listen(*addr, stderr, "fixtures serve")
	if err != nil {
		return 1
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "phasechat fixtures: serving on %s (Ctrl+C stops)\n", base)
	fmt.Fprintf(stdout, "  raw SSE stream:  curl -N %s/stream   (a tool call, text, [DONE]; one frame per --interval)\n", base)
	fmt.Fprintf(stdout, "  chat:            phasechat --base-url %s/v1 --model tool-then-text\n", base)
	fmt.Fprintf(stdout, "  or:              export OPENAI_BASE_URL=%s/v1\n", base)
	fmt.Fprintln(stdout, "  scenarios:       phasechat fixtures list")
	return serveUntilDone(ctx, ln, h, stdout, stderr, "fixtures")
}

func fixturesList(args []string, stdout, stderr io.Writer) int {
	fs, parse := newFlags("fixtures list", fixturesUsage, stderr)
	dir := fs.String("dir", "", "also list the *.scenario files in this folder")
	if code := parse(args); code >= 0 {
		return code
	}
	all, skipped, ok := scenarios("fixtures list", *dir, stderr)
	if !ok {
		return 1
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, name := range slices.Sorted(maps.Keys(all)) {
		fmt.Fprintf(tw, "%s\t%s\n", name, all[name].Description)
	}
	tw.Flush()
	if skipped {
		return 1 // the others are still listed
	}
	return 0
}

func fixturesBody(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fixtures body", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, fixturesUsage) }
	dir := fs.String("dir", "", "look in this folder's *.scenario files first")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "phasechat fixtures body: name one scenario\n\n%s", fixturesUsage)
		return 2
	}
	all, _, ok := scenarios("fixtures body", *dir, stderr)
	if !ok {
		return 1
	}
	scenario, found := all[fs.Arg(0)]
	if !found {
		fmt.Fprintf(stderr, "phasechat fixtures body: no scenario named %q (see phasechat fixtures list)\n", fs.Arg(0))
		return 1
	}
	if _, err := stdout.Write(scenario.Body()); err != nil {
		fmt.Fprintf(stderr, "phasechat fixtures body: %v\n", err)
		return 1
	}
	return 0
}

// scenarios are the built-in scenarios and those of dir, which win over a built-in of the
// same name. ok is false when dir cannot be read; skipped is true when some of its files
// could not be (the others still count). Both are said on stderr.
func scenarios(cmd, dir string, stderr io.Writer) (all map[string]*fixtures.Scenario, skipped, ok bool) {
	all = map[string]*fixtures.Scenario{}
	for _, name := range fixtures.Names() {
		all[name], _ = fixtures.Lookup(name)
	}
	if dir == "" {
		return all, false, true
	}
	extra, err := fixtures.LoadDir(dir)
	var skip *fixtures.SkippedError
	switch {
	case errors.As(err, &skip):
		fmt.Fprintf(stderr, "phasechat %s: %v\n", cmd, skip)
		skipped = true
	case err != nil:
		fmt.Fprintf(stderr, "phasechat %s: %v\n", cmd, err)
		return nil, false, false
	}
	for _, s := range extra {
		all[s.Name] = s
	}
	return all, skipped, true
}

func recordMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, parse := newFlags("record", recordUsage, stderr)
	upstream := fs.String("upstream", "", "the API to record, such as https://api.openai.com/v1")
	out := fs.String("out", "", "folder for the recordings (created if missing)")
	addr := fs.String("addr", "127.0.0.1:8788", "address to listen on (loopback unless you say otherwise)")
	faultSpec := fs.String("fault", "", "a fault injected into every answer: stall@N, reset@N, cut@N, status:CODE or slow:MS")
	if code := parse(args); code >= 0 {
		return code
	}
	var fault fixtures.Fault
	if *faultSpec != "" {
		f, err := fixtures.ParseFault(*faultSpec)
		if err != nil {
			fmt.Fprintf(stderr, "phasechat record: %v\n", err)
			return 2
		}
		fault = f
	}
	if *upstream == "" || *out == "" {
		fmt.Fprintf(stderr, "phasechat record: --upstream and --out are both required\n\n%s", recordUsage)
		return 2
	}
	u, ok := ident.WebURL(*upstream)
	if !ok {
		fmt.Fprintf(stderr, "phasechat record: --upstream %q: want an http:// or https:// URL such as https://api.openai.com/v1\n", *upstream)
		return 2
	}
	rec, err := fixtures.NewRecorder(u, *out, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "phasechat record: %v\n", err)
		return 1
	}
	known := app.EnvSecrets()
	known.AddURL(*upstream)
	rec.Redact = func(s string, exchange []string) string { return known.With(exchange...).Redact(s) }
	rec.Fault = fault
	ln, err := listen(*addr, stderr, "record")
	if err != nil {
		return 1
	}
	base := "http://" + ln.Addr().String() + "/v1"
	fmt.Fprintf(stdout, "phasechat record: listening on %s, recording %s into %s (Ctrl+C stops)\n", base, u.Redacted(), *out)
	fmt.Fprintf(stdout, "  chat through it: phasechat --base-url %s --model <model>\n", base)
	fmt.Fprintf(stdout, "  or:              export OPENAI_BASE_URL=%s\n", base)
	fmt.Fprintln(stdout, "  your API key is forwarded upstream and never written to a file")
	if fault.Kind != fixtures.FaultNone {
		fmt.Fprintf(stdout, "  every answer gets the fault %s\n", fault)
	}
	return serveUntilDone(ctx, ln, rec, stdout, stderr, "record")
}

func listen(addr string, stderr io.Writer, cmd string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "phasechat %s: cannot listen on %s: %v (another server on that port? try --addr 127.0.0.1:0)\n", cmd, addr, err)
		return nil, err
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		fmt.Fprintf(stderr, "phasechat %s: note: listening on %s, beyond loopback: anyone who can reach it can use it\n", cmd, ln.Addr())
	}
	return ln, nil
}

func serveUntilDone(ctx context.Context, ln net.Listener, h http.Handler, stdout, stderr io.Writer, cmd string) int {
	if err := fixtures.Serve(ctx, ln, h); err != nil {
		fmt.Fprintf(stderr, "phasechat %s: %v\n", cmd, err)
		return 1
	}
	fmt.Fprintf(stdout, "phasechat %s: stopped\n", cmd)
	return 0
}
