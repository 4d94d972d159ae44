package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/model/attach"
)

// clipboardWait is how long the clipboard tool may take to print the image.
const clipboardWait = 3 * time.Second

// ClipboardImage returns a function that reads the system clipboard's image as PNG with the
// clipboard tool there is (wl-paste, xclip, pngpaste), or nil when there is none. It reads at
// most the largest image an attachment may be and waits at most clipboardWait.
func ClipboardImage() func() ([]byte, error) {
	var argv []string
	switch {
	case os.Getenv("WAYLAND_DISPLAY") != "":
		argv = []string{"wl-paste", "--no-newline", "--type", "image/png"}
	case os.Getenv("DISPLAY") != "":
		argv = []string{"xclip", "-selection", "clipboard", "-t", "image/png", "-o"}
	case runtime.GOOS == "darwin":
		argv = []string{"pngpaste", "-"}
	default:
		return nil
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil
	}
	return func() ([]byte, error) { return readTool(path, argv, attach.DefaultLimits.Image, clipboardWait) }
}

// readTool runs path (argv[0] names it) and returns what it prints: at most limit bytes, and
// within wait; what it says on stderr is the error when it fails.
func readTool(path string, argv []string, limit int64, wait time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, argv[1:]...)
	stderr := &limitedBuffer{max: 512}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", argv[0], err)
	}
	data, rerr := io.ReadAll(io.LimitReader(out, limit+1))
	if int64(len(data)) > limit {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("the clipboard's image is more than the %s an image may be", format.Bytes(limit))
	}
	werr := cmd.Wait()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("%s did not answer within %v", argv[0], wait)
	case werr != nil || rerr != nil:
		why := strings.TrimSpace(stderr.String())
		if why == "" {
			why = errors.Join(werr, rerr).Error()
		}
		return nil, fmt.Errorf("the clipboard holds no image (%s: %s)", argv[0], why)
	case len(data) == 0:
		return nil, errors.New("the clipboard holds no image")
	}
	return data, nil
}
