package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/phasechat/phasechat/model/app"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

const replayUsage = `usage: phasechat replay [--json | --trace] [--wire chat|anthropic|responses] [FILE|-]

Runs a recorded response body (SSE, or a JSON answer) through the streaming pipeline, with no
network and no UI. FILE absent or - reads standard input.
  --json    print the reassembled reply as one JSON object
  --trace   print one JSON object per SSE event (and one for the end of the stream)
  --wire    decode the stream in this wire format (default: detected from the first event)
Exit status: 0 when the stream completed, 1 otherwise, 2 for a usage error.
`

// runReplay is `phasechat replay`: it parses the flags and leaves the rest to stream.Replay.
func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	format, file, set := stream.ReplayText, "", 0
	var (
		files []string
		as    wire.Wire
	)
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(a, "=")
		if name == "--wire" || name == "-wire" {
			if !hasValue {
				if i+1 >= len(args) {
					fmt.Fprintf(stderr, "phasechat replay: --wire needs a format: chat, anthropic or responses\n%s", replayUsage)
					return 2
				}
				i++
				value = args[i]
			}
			w, err := wire.ParseWire(value)
			if err != nil {
				fmt.Fprintf(stderr, "phasechat replay: %v\n", err)
				return 2
			}
			as = w
			continue
		}
		switch a {
		case "--json", "-json":
			format, set = stream.ReplayJSON, set+1
		case "--trace", "-trace":
			format, set = stream.ReplayTrace, set+1
		case "-h", "-help", "--help":
			fmt.Fprint(stdout, replayUsage)
			return 0
		default:
			if strings.HasPrefix(a, "-") && a != "-" {
				fmt.Fprintf(stderr, "phasechat replay: unknown flag %s\n%s", a, replayUsage)
				return 2
			}
			files = append(files, a)
		}
	}
	switch {
	case set > 1:
		fmt.Fprintf(stderr, "phasechat replay: --json and --trace are exclusive\n%s", replayUsage)
		return 2
	case len(files) > 1:
		fmt.Fprintf(stderr, "phasechat replay: one FILE at most, got %d\n%s", len(files), replayUsage)
		return 2
	case len(files) == 1:
		file = files[0]
	}
	in := stdin
	if file != "" && file != "-" {
		f, err := os.Open(file)
		if err != nil {
			fmt.Fprintf(stderr, "phasechat replay: %v\n", err)
			return 2
		}
		defer f.Close()
		in = f
	}
	res, err := stream.Replay(in, as, format, app.EnvSecrets().Writer(stdout), safe.Text)
	if err != nil {
		fmt.Fprintf(stderr, "phasechat replay: %v\n", err)
		return 1
	}
	if res.Outcome != wire.OutcomeComplete {
		return 1
	}
	return 0
}
