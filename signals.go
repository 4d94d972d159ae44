package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// untilInterrupted runs a serving command ("phasechat fixtures", "phasechat record") until
// Ctrl+C (SIGINT) or SIGTERM.
func untilInterrupted(cmd func(context.Context, []string, io.Writer, io.Writer) int, args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cmd(ctx, args, stdout, stderr)
}
