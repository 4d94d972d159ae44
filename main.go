// Command phasechat is a terminal chat client for streaming chat APIs (Chat Completions,
// Anthropic Messages, OpenAI Responses).
// main only parses the command line, picks the front end and prints; model/app assembles the
// session.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/phasechat/phasechat/fixtures/fixturescmd"
	"github.com/phasechat/phasechat/model/app"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

const usage = `phasechat — a terminal chat client for streaming chat APIs in three wire formats (--wire):
Chat Completions (OpenAI and compatible servers), Anthropic Messages and OpenAI Responses.

Usage:
  phasechat [flags]                                interactive chat (default)
  phasechat -p "question" [flags]                  one-shot: print the reply; stdin is context (exit codes below)
  phasechat --continue | --resume ID|FILE           continue a saved conversation
  phasechat sessions list|show|search|rename|rm|export   saved conversations (phasechat sessions help)
  phasechat replay [--json | --trace] [--wire W] [FILE|-]   a recorded SSE body through the same pipeline
  phasechat fixtures serve [--addr 127.0.0.1:8787] [--interval 400ms] [--dir DIR]
  phasechat fixtures list [--dir DIR]
  phasechat fixtures body [--dir DIR] NAME         a scenario's streamed body, for replay
  phasechat record --upstream URL --out DIR [--addr 127.0.0.1:8788]
  phasechat mcp list --mcp FILE                    each MCP server's state, tools and token cost

One-shot mode (-p) writes only the reply to standard output and exits with
  0 complete, 1 error (HTTP, error frame, network, empty reply, stdout closed), 2 usage
  (no endpoint configured: -p never falls back to the demo; --base-url demo asks for it),
  3 truncated or cut off (finish_reason length, no end of stream, step limit),
  4 stalled (--stall-timeout), 130 interrupted (the partial reply is printed).

Chat flags:
`

// fixturesCommand is "phasechat fixtures" and "phasechat record", keeping this run's
// environment keys out of what they log and record.
var fixturesCommand = fixturescmd.Command{Secrets: app.EnvSecrets}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app.Version = version
	if len(args) > 0 {
		switch args[0] {
		case "sessions":
			return runSessions(args[1:], stdout, stderr)
		case "replay":
			return runReplay(args[1:], stdin, stdout, stderr)
		case "fixtures":
			return untilInterrupted(fixturesCommand.Fixtures, args[1:], stdout, stderr)
		case "record":
			return untilInterrupted(fixturesCommand.Record, args[1:], stdout, stderr)
		case "mcp":
			return runMCP(args[1:], stdout, stderr)
		case "help":
			fmt.Fprint(stdout, usage)
			chatFlagSet(new(app.Flags), stdout).PrintDefaults()
			return 0
		}
	}
	return runChat(args, stdin, stdout, stderr)
}
