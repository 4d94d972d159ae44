// Command phasechat is a terminal chat client for OpenAI-compatible streaming chat APIs.
// main only parses the command line and wires the packages together.
package main

import (
	"fmt"
	"io"
	"os"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

const usage = `phasechat — a terminal chat client for OpenAI-compatible streaming chat APIs.

Usage:
  phasechat [flags]                                interactive chat (default)
  phasechat --continue | --resume ID|FILE           continue a saved conversation
  phasechat sessions list|show|search|rename|rm|export   saved conversations (phasechat sessions help)
  phasechat replay [--json | --trace] [FILE|-]     a recorded SSE body through the same pipeline
  phasechat fixtures serve [--addr 127.0.0.1:8787] [--interval 400ms] [--dir DIR]
  phasechat fixtures list [--dir DIR]
  phasechat fixtures body [--dir DIR] NAME         a scenario's streamed body, for replay
  phasechat record --upstream URL --out DIR [--addr 127.0.0.1:8788]

Chat flags:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "sessions":
			return runSessions(args[1:], stdout, stderr)
		case "replay":
			return runReplay(args[1:], stdin, stdout, stderr)
		case "fixtures":
			return runFixtures(args[1:], stdout, stderr)
		case "record":
			return runRecord(args[1:], stdout, stderr)
		case "help":
			fmt.Fprint(stdout, usage)
			chatFlagSet(new(chatOptions), stdout).PrintDefaults()
			return 0
		}
	}
	return runChat(args, stdout, stderr)
}
