package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/oneshot"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/view/safe"
)

// maxContext caps what one-shot mode reads from standard input.
const maxContext = 8 << 20

type oneShotOptions struct {
	print, quiet, raw bool
	format            string
}

func oneShotFlags(fs *flag.FlagSet, o *oneShotOptions) {
	fs.BoolVar(&o.print, "p", false, "one-shot: send the prompt given as the arguments (or read from standard input), print the reply, exit (exit codes: One-shot mode, above)")
	fs.BoolVar(&o.print, "print", false, "same as -p")
	fs.BoolVar(&o.quiet, "q", false, "one-shot: no status or tool notices on standard error (errors still)")
	fs.BoolVar(&o.raw, "raw", false, "one-shot: write the reply's bytes as they came, terminal controls too (by default a file or pipe gets the text without them, a terminal the screen's rules)")
	fs.StringVar(&o.format, "format", "text", "one-shot output: text (the reply as it streams), json (one object at the end) or jsonl (one event per line)")
}

// runOneShot sends one prompt and prints the reply; the exit code says how the turn ended.
func runOneShot(o chatOptions, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	format := oneshot.Format(o.oneShot.format)
	if format != oneshot.FormatText && format != oneshot.FormatJSON && format != oneshot.FormatJSONL {
		fmt.Fprintf(stderr, "phasechat: --format is text, json or jsonl, not %q\n", o.oneShot.format)
		return oneshot.ExitUsage
	}
	prompt := strings.TrimSpace(strings.Join(args, " "))
	context, err := readContext(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "phasechat:", err)
		return oneshot.ExitUsage
	}
	message := prompt
	switch {
	case prompt == "" && strings.TrimSpace(context) == "":
		fmt.Fprintln(stderr, `phasechat: -p needs a prompt: phasechat -p "question", or the prompt on standard input`)
		return oneshot.ExitUsage
	case prompt == "":
		message, prompt = context, context
	case strings.TrimSpace(context) != "":
		message = strings.TrimRight(context, "\n") + "\n\n" + prompt
	}
	code, err := oneShot(o, prompt, message, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "phasechat:", safe.Text(err.Error()))
		if exitFor(err) == oneshot.ExitUsage {
			code = oneshot.ExitUsage
		}
	}
	return code
}

// textRule is how the reply is cleaned for stdout: the screen's rules on a terminal, the
// text without terminal controls in a file or pipe, the bytes as they came with --raw.
func textRule(raw bool, stdout io.Writer) oneshot.TextRule {
	switch f, ok := stdout.(*os.File); {
	case raw:
		return oneshot.TextRaw
	case ok && term.IsTerminal(int(f.Fd())):
		return oneshot.TextScreen
	}
	return oneshot.TextPlain
}

// readContext reads standard input unless it is a terminal (nobody is typing context there).
func readContext(stdin io.Reader) (string, error) {
	if stdin == nil {
		return "", nil
	}
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "", nil
	}
	var b bytes.Buffer
	n, err := io.Copy(&b, io.LimitReader(stdin, maxContext+1))
	if err != nil {
		return "", fmt.Errorf("reading standard input: %w", err)
	}
	if n > maxContext {
		return "", fmt.Errorf("standard input is larger than %d MiB; pass a smaller part of it", maxContext>>20)
	}
	return b.String(), nil
}

func oneShot(o chatOptions, prompt, message string, stdout, stderr io.Writer) (int, error) {
	t, err := chooseTarget(&o, stderr)
	if err != nil {
		return oneshot.ExitFailed, err
	}
	ep := t.ep
	defer ep.stop()
	reg, err := loadTools(o.tools, stderr)
	if err != nil {
		return oneshot.ExitFailed, t.secrets.Error(err)
	}
	reg.Secrets = t.secrets
	reg.MaxParallel = o.maxTools
	if t.provs != nil {
		reg.HiddenEnv = t.provs.keyVariables()
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	servers, err := sessionMCP(o.mcp, t.file, reg)
	if err != nil {
		return oneshot.ExitFailed, t.secrets.Error(err)
	}
	if servers != nil {
		defer servers.Close()
		// No one is there to see a server arrive later: wait for each to be ready or failed
		// (bounded by its startup_timeout), and say on stderr what failed.
		select {
		case <-servers.Settled():
		case <-sigs:
			return oneshot.ExitInterrupted, nil
		}
		if u, ok := servers.Next(); ok {
			for _, n := range u.Notices {
				fmt.Fprintln(stderr, "phasechat:", safe.Text(n))
			}
		}
	}
	flags := o.sessionFlags()
	flags.title = t.secrets.Redact(prompt)
	conv, err := openConversation(flags, sessionlog.Header{Model: t.modelLabel(), Endpoint: endpointLabel(ep.baseURL), System: o.system}, hostOf(ep.baseURL))
	if err != nil {
		return oneshot.ExitFailed, err
	}
	conv.secrets = t.secrets
	performer := &perform.Performer{Client: t.client, Tools: reg}
	if t.provs != nil {
		performer.Route = t.provs.client
	}
	engine := chat.New(chat.Config{
		Provider: t.provider, Model: ep.model, System: o.system, MaxSteps: o.maxSteps, NoStream: o.noStream,
		Tools: perform.Toolbox(reg), AutoApprove: o.yes, CanAsk: false, MaxTools: o.maxTools,
	}, conv.history)
	opts := oneshot.Options{
		Chat: engine, Performer: performer, Log: conv.recorder(),
		Prompt: message, Format: oneshot.Format(o.oneShot.format), Out: stdout, ErrAlways: stderr,
		Interrupt: sigs, Text: textRule(o.oneShot.raw, stdout),
	}
	if conv.session != nil {
		opts.Session = conv.session.ID()
	}
	if !o.oneShot.quiet {
		opts.Err = stderr
		if conv.notice != "" {
			fmt.Fprintln(stderr, "phasechat:", safe.Line(conv.notice))
		}
	}
	res := oneshot.Run(opts)
	if err := conv.close(); err != nil {
		if res.ExitCode == oneshot.ExitComplete {
			res.ExitCode = oneshot.ExitFailed
		}
		return res.ExitCode, fmt.Errorf("the reply was not saved: %w", err)
	}
	if conv.session != nil && conv.session.Saved() && !o.oneShot.quiet {
		fmt.Fprintf(stderr, "phasechat: saved as session %s (phasechat --resume %s continues it)\n", conv.session.ID(), conv.session.ID())
	}
	return res.ExitCode, nil
}
