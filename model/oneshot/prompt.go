package oneshot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// MaxContext caps what is read from standard input.
const MaxContext = 8 << 20

// Prompt is what a one-shot turn sends, message, and the title of its session: the words of
// args, after the context piped on stdin; stdin alone is both when args are empty. A terminal
// on stdin is not read (nobody is typing context there). Every error is the command line's.
func Prompt(args []string, stdin io.Reader) (title, message string, err error) {
	title = strings.TrimSpace(strings.Join(args, " "))
	context, err := readContext(stdin)
	if err != nil {
		return "", "", err
	}
	switch {
	case title == "" && strings.TrimSpace(context) == "":
		return "", "", errors.New(`-p needs a prompt: phasechat -p "question", or the prompt on standard input`)
	case title == "":
		return context, context, nil
	case strings.TrimSpace(context) != "":
		return title, strings.TrimRight(context, "\n") + "\n\n" + title, nil
	}
	return title, title, nil
}

func readContext(stdin io.Reader) (string, error) {
	if stdin == nil {
		return "", nil
	}
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "", nil
	}
	var b bytes.Buffer
	n, err := io.Copy(&b, io.LimitReader(stdin, MaxContext+1))
	if err != nil {
		return "", fmt.Errorf("reading standard input: %w", err)
	}
	if n > MaxContext {
		return "", fmt.Errorf("standard input is larger than %d MiB; pass a smaller part of it", MaxContext>>20)
	}
	return b.String(), nil
}
