package linemode

import (
	"bytes"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/view/markdown"
	"github.com/phasechat/phasechat/view/safe"
)

// approvalDir holds the mark scenario and the tools file that defines mark.
var approvalDir = filepath.Join("testdata", "approval")

// fixtureURL starts the fixture server (with the approval scenarios) on 127.0.0.1 port 0, at
// a tenth of real time, and returns its API root.
func fixtureURL(t *testing.T) string {
	t.Helper()
	h, err := fixtures.NewHandler(fixtures.Options{Pace: 0.1, Dir: approvalDir})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// sessionOptions builds what Run needs to chat with model at base: the built-in tools and
// mark, rooted at dir (where mark writes marker.txt).
func sessionOptions(t *testing.T, base, model, dir string, canAsk bool, in *os.File, out io.Writer) Options {
	t.Helper()
	reg, err := tools.NewRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg.Clean = safe.Text
	user, err := tools.LoadFile(filepath.Join(approvalDir, "tools.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(user...); err != nil {
		t.Fatal(err)
	}
	engine := chat.New(chat.Config{Model: model, Tools: perform.Toolbox(reg), CanAsk: canAsk}, nil)
	return Options{
		Chat:       engine,
		Performer:  &perform.Performer{Client: stream.NewClient(base, ""), Tools: reg},
		To:         Destination{Endpoint: base, Model: model},
		CodeBlocks: markdown.CodeBlocks,
		In:         in,
		Out:        out,
		// short, so tests answer soon (a key sooner is not taken, and the line mode says so)
		ApprovalQuiet: testApprovalQuiet,
	}
}

// testApprovalQuiet is the approval wait of test sessions.
const testApprovalQuiet = 10 * time.Millisecond

// start runs Run on its own goroutine; the returned function waits for it (as long as the
// test's patience lasts) and returns its error.
func start(t *testing.T, o Options) (wait func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- Run(o) }()
	return func() error {
		t.Helper()
		select {
		case err := <-done:
			return err
		case <-testwait.After(t):
			t.Fatal("Run did not return")
			return nil
		}
	}
}

// syncBuffer is an io.Writer safe to read while Run writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// statusLines returns the Status lines of an output, in order.
func statusLines(out string) []string {
	var st []string
	for l := range strings.SplitSeq(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(l, "Status: ") {
			st = append(st, l)
		}
	}
	return st
}
