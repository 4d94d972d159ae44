package oneshot

import (
	"bytes"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/view/safe"
)

func turn(t *testing.T, model string, interrupt chan os.Signal) (Result, string, string) {
	t.Helper()
	h, err := fixtures.NewHandler(fixtures.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	reg, err := tools.NewRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg.Clean = safe.Text
	c := chat.New(chat.Config{Model: model, Tools: perform.Toolbox(reg)}, nil)
	var out, errb bytes.Buffer
	res := Run(Options{Chat: c, Performer: &perform.Performer{Client: stream.NewClient(srv.URL+"/v1", ""), Tools: reg},
		Prompt: "hi", Out: &out, Err: &errb, ErrAlways: &errb, Interrupt: interrupt})
	return res, out.String(), errb.String()
}

// TestStepsAreJoinedOnLinesOfTheirOwn: a turn of several requests prints each step's text on
// a line of its own, reports the calls on stderr, and the content is what stdout got.
func TestStepsAreJoinedOnLinesOfTheirOwn(t *testing.T) {
	res, out, errs := turn(t, "tool-then-text", nil)
	if res.Outcome != Complete || res.ExitCode != 0 {
		t.Fatalf("result %+v", res)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "Tool results received") || res.Content+"\n" != out {
		t.Fatalf("stdout %q, content %q", out, res.Content)
	}
	if !strings.Contains(errs, "Running list_dir") || !strings.Contains(errs, "Tool list_dir done") {
		t.Fatalf("stderr %q", errs)
	}
}

// TestReasoningGoesToStderr: reasoning never reaches stdout.
func TestReasoningGoesToStderr(t *testing.T) {
	res, out, errs := turn(t, "reasoning", nil)
	if res.Reasoning == "" || strings.Contains(out, res.Reasoning) || !strings.Contains(errs, res.Reasoning) {
		t.Fatalf("stdout %q, stderr %q, reasoning %q", out, errs, res.Reasoning)
	}
}

// TestAnInterruptBeforeAnythingArrivedIsStillInterrupted.
func TestAnInterruptBeforeAnythingArrivedIsStillInterrupted(t *testing.T) {
	sig := make(chan os.Signal, 1)
	sig <- os.Interrupt
	res, _, errs := turn(t, "stall", sig)
	if res.Outcome != Interrupted || res.ExitCode != 130 || !strings.Contains(errs, "Interrupted") {
		t.Fatalf("result %+v, stderr %q", res, errs)
	}
}

// TestANoticeInAToolTurnIsNotTheStepLimit: a tool loop whose server made the chat say
// something on the way (Groq's reasoning rule) and then answered is complete, not cut off.
func TestANoticeInAToolTurnIsNotTheStepLimit(t *testing.T) {
	res, out, errs := turn(t, "groq-reasoning-strict", nil)
	if res.Outcome != Complete || res.ExitCode != 0 || !strings.Contains(out, "Tool results received") {
		t.Fatalf("result %+v, stdout %q, stderr %q", res, out, errs)
	}
}
