package tmux

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
)

// bodyRecorder is a fixture server that keeps the body of every chat request.
type bodyRecorder struct {
	*fixtureServer
	mu     sync.Mutex
	bodies []string
}

func startBodyRecorder(t *testing.T) *bodyRecorder {
	t.Helper()
	h, err := fixtures.NewHandler(fixtures.Options{Pace: 1})
	if err != nil {
		t.Fatal(err)
	}
	br := &bodyRecorder{fixtureServer: &fixtureServer{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			br.mu.Lock()
			br.bodies = append(br.bodies, string(body))
			br.mu.Unlock()
			br.started.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	br.URL = srv.URL
	return br
}

// body is the n-th chat request's body (from 1).
func (br *bodyRecorder) body(n int) string {
	br.mu.Lock()
	defer br.mu.Unlock()
	return br.bodies[n-1]
}

// writeAttachments writes a three-line notes.txt and an 8×8 red.png into dir.
func writeAttachments(t *testing.T, dir string) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for y := range 8 {
		for x := range 8 {
			img.Set(x, y, color.RGBA{255, 0, 0, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if os.WriteFile(filepath.Join(dir, "red.png"), b.Bytes(), 0o600) != nil ||
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("alpha line\nbeta line\ngamma line\n"), 0o600) != nil {
		t.Fatal("cannot write the attachments")
	}
}

// reply is the text scenario's answer.
const reply = "Hello! This is a plain streamed reply, sent one word at a time."

// Files in the full-screen chat: @ completes a file name with Tab and the message carries the
// file; /attach attaches an image the next message carries; each prompt shows its files'
// chips, and Alt+↑ then Ctrl+O shows the text file's lines or the image's details under it.
func TestTUIAttachesFilesAndExpandsTheirChips(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startBodyRecorder(t)
	dir := t.TempDir()
	writeAttachments(t, dir)
	p := newProgramPane(t, 100, 40, dir, hermeticEnv(t), fs.chatArgs(t, "text"))
	p.waitFor(idleStatus)

	p.typeText("read @not")
	p.waitFor("notes.txt   (Tab completes)")
	p.keys("Tab")
	p.waitFor("│ read @notes.txt")
	p.typeText("please")
	p.keys("Enter")
	p.waitFor("[file notes.txt · 3 lines]", reply)
	waitCount(t, "requests", &fs.started, 1)
	if body := fs.body(1); !strings.Contains(body, `path=\"notes.txt\"`) || !strings.Contains(body, `alpha line\nbeta line\ngamma line`) {
		t.Fatalf("the first request lacks notes.txt: %.800s", body)
	}

	p.typeLine("/attach red.png")
	p.waitFor("with [image red.png · 8×8 · ")
	p.typeLine("what colour is it")
	p.waitFor("› what colour is it", "  [image red.png · 8×8 · ")
	waitCount(t, "requests", &fs.started, 2)
	if body := fs.body(2); !strings.Contains(body, `"type":"image_url"`) || !strings.Contains(body, `data:image/png;base64,`) {
		t.Fatalf("the second request lacks the image: %.800s", body)
	}
	p.waitUntil("the second reply", func(s string) bool { return strings.Count(s, reply) == 2 })

	p.keys("M-Up") // the newest prompt with files: the image's
	p.keys("C-o")
	p.waitFor("▶ what colour is it", "    image/png · 8×8 pixels · ")
	p.keys("M-Up") // the one before: notes.txt's
	p.keys("C-o")
	p.waitFor("▶ read @notes.txt please", "    alpha line", "    gamma line")
	p.keys("C-c")
	p.exit("0")
}

// A command line and its Enter sent in one go while the reply's last frame is still on its way
// (as a script or a paste sends them): the command waits for the reply's end, saying so, then
// runs; the next line and its Enter, sent in one go as soon as the image is attached, carry it.
// A command Entered while that reply streams, then Esc: the stop leaves it in the composer, not
// run.
func TestTUIRunsACommandEnteredAsTheReplyEnds(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	var waitSeen atomic.Bool
	fs.holdDone(waitSeen.Load)
	dir := t.TempDir()
	writeAttachments(t, dir)
	p := newProgramPane(t, 100, 30, dir, hermeticEnv(t), fs.chatArgs(t, "text"))
	p.waitFor(idleStatus)
	p.typeLine("hello")
	p.waitFor(reply)
	p.keys("/attach red.png", "Enter")
	p.waitFor("/attach runs after the reply (", "│ /attach red.png")
	waitSeen.Store(true)
	p.waitFor("with [image red.png · 8×8 · ")
	if fs.gateMissed.Load() {
		t.Fatal("the reply ended before the command was seen waiting")
	}
	var stopped atomic.Bool
	fs.holdDone(stopped.Load)
	p.keys("what colour is it", "Enter")
	p.waitFor("› what colour is it", "  [image red.png · 8×8 · ")
	p.waitUntil("the second reply", func(screen string) bool { return strings.Count(screen, reply) == 2 })
	p.keys("/system be brief", "Enter")
	p.waitFor("/system runs after the reply (", "│ /system be brief")
	p.keys("Escape")
	p.waitFor("Stopped. The partial reply is kept.", "│ /system be brief")
	stopped.Store(true)
	if fs.gateMissed.Load() {
		t.Fatal("the reply ended before Esc stopped it")
	}
	p.neverShowed("System prompt set")
	p.keys("C-c")
	p.waitUntil("the composer cleared", func(screen string) bool { return !strings.Contains(screen, "│ /system be brief") })
	p.keys("C-c")
	p.exit("0")
}
