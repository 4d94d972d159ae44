package oneshot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// MaxContext caps what is read from standard input.
const MaxContext = 8 << 20

// StdinSilence is how long standard input may send nothing, while it is read, before Prompt
// says that it is waiting for it to close.
const StdinSilence = 3 * time.Second

// stdinWaitNotice is said once when standard input stays silent for StdinSilence.
const stdinWaitNotice = "phasechat: still reading standard input (nothing came for %s): -p sends the prompt once it closes; give </dev/null to send no context\n"

// Prompt is what a one-shot turn sends, message, and the title of its session: the words of
// args, after the context piped on stdin; stdin alone is both when args are empty. A terminal
// on stdin is not read (nobody is typing context there); a pipe is read until it closes, and
// when it stays silent for StdinSilence meanwhile, warn is told so, once. With files
// attached the prompt may be empty (the files are the question). Every error is the command
// line's.
func Prompt(args []string, stdin io.Reader, warn io.Writer, files bool) (title, message string, err error) {
	title = strings.TrimSpace(strings.Join(args, " "))
	context, err := readContext(stdin, warn)
	if err != nil {
		return "", "", err
	}
	switch {
	case title == "" && strings.TrimSpace(context) == "" && files:
		return "", "", nil
	case title == "" && strings.TrimSpace(context) == "":
		return "", "", errors.New(`-p needs a prompt: phasechat -p "question", or the prompt on standard input`)
	case title == "":
		return context, context, nil
	case strings.TrimSpace(context) != "":
		return title, strings.TrimRight(context, "\n") + "\n\n" + title, nil
	}
	return title, title, nil
}

func readContext(stdin io.Reader, warn io.Writer) (string, error) {
	if stdin == nil {
		return "", nil
	}
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "", nil
	}
	var said sync.Once
	silent := time.AfterFunc(StdinSilence, func() {
		said.Do(func() { fmt.Fprintf(warn, stdinWaitNotice, StdinSilence) })
	})
	defer silent.Stop()
	var b bytes.Buffer
	n, err := io.Copy(&b, io.LimitReader(heard{stdin, silent}, MaxContext+1))
	if err != nil {
		return "", fmt.Errorf("reading standard input: %w", err)
	}
	if n > MaxContext {
		return "", fmt.Errorf("standard input is larger than %d MiB; pass a smaller part of it", MaxContext>>20)
	}
	return b.String(), nil
}

// heard restarts the silence timer at each read that brings something.
type heard struct {
	r      io.Reader
	silent *time.Timer
}

func (h heard) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if n > 0 {
		h.silent.Reset(StdinSilence)
	}
	return n, err
}
