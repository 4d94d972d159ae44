package oneshot

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/view/safe"
)

func turn(t *testing.T, model string, interrupt chan os.Signal) (Result, string, string) {
	t.Helper()
	return turnWith(t, chat.Config{Model: model}, interrupt)
}

func turnWith(t *testing.T, cfg chat.Config, interrupt chan os.Signal) (Result, string, string) {
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
	cfg.Tools = perform.Toolbox(reg)
	c := chat.New(cfg, nil)
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

// TestNoticesOfTheTurnGoToStderrOnce: what phasechat learnt on the way (a setting the server
// rejects) is said on stderr, once, and never on stdout.
func TestNoticesOfTheTurnGoToStderrOnce(t *testing.T) {
	res, out, errs := turn(t, "stream-options-strict", nil)
	if res.Outcome != Complete || strings.Count(errs, stream.NoticeStreamOptions) != 1 || strings.Contains(out, "rejects") {
		t.Fatalf("result %+v, stdout %q, stderr %q", res, out, errs)
	}
}

// TestTheStepLimitIsSaidOnce: the engine's notice names the limit and is the turn's error,
// written once.
func TestTheStepLimitIsSaidOnce(t *testing.T) {
	res, _, errs := turnWith(t, chat.Config{Model: "tool-then-text", MaxSteps: 1}, nil)
	if res.Outcome != Truncated || !strings.Contains(res.Error, "Stopped after 1 step (--max-steps 1)") {
		t.Fatalf("result %+v, stderr %q", res, errs)
	}
	if strings.Count(errs, "--max-steps") != 1 || !strings.Contains(errs, "Stopped after 1 step") {
		t.Fatalf("stderr %q", errs)
	}
}

// TestAToolWithoutArgumentsIsAnnouncedWithoutATrailingSpace.
func TestAToolWithoutArgumentsIsAnnouncedWithoutATrailingSpace(t *testing.T) {
	_, _, errs := turn(t, "empty-args", nil)
	if !strings.Contains(errs, "phasechat: Running now\n") {
		t.Fatalf("stderr %q", errs)
	}
}

// TestUsageIsNullWhenTheServerReportedNone: a script tells "not reported" from zero tokens.
func TestUsageIsNullWhenTheServerReportedNone(t *testing.T) {
	res, _, _ := turn(t, "text", nil)
	b, err := json.Marshal(res)
	if err != nil || res.Usage != nil || !strings.Contains(string(b), `"usage":null`) {
		t.Fatalf("usage %+v, json %s", res.Usage, b)
	}
	if res, _, _ := turn(t, "context-cap", nil); res.Usage == nil || res.Usage.PromptTokens != 4096 {
		t.Fatalf("reported usage lost: %+v", res.Usage)
	}
}

// TestCostIsThereWhenThePriceIsKnown: the result carries the turn's cost at the model's price,
// and null when the price is unknown.
func TestCostIsThereWhenThePriceIsKnown(t *testing.T) {
	res, _, _ := turnWith(t, chat.Config{Model: "context-cap", Budget: budget.Model{Price: &budget.Price{In: 1, Out: 2}}}, nil)
	want := float64(res.Usage.PromptTokens)*1e-6 + float64(res.Usage.CompletionTokens)*2e-6
	if res.Cost == nil || *res.Cost != want {
		t.Fatalf("cost %v, want %v for %+v", res.Cost, want, res.Usage)
	}
	res, _, _ = turn(t, "context-cap", nil)
	if b, _ := json.Marshal(res); res.Cost != nil || !strings.Contains(string(b), `"cost_usd":null`) {
		t.Fatalf("cost %v without a price: %s", res.Cost, b)
	}
}

// A tool's name reads on stderr as on its card and the status line: one sanitised form, the
// status line's punctuation rule included.
func TestAToolIsNamedAsOnItsCard(t *testing.T) {
	_, _, errs := turn(t, "hostile", nil)
	name := "list_dir\x1b]0;pwned\a"
	if !strings.Contains(errs, "Tool "+safe.ToolName(name)+" ") {
		t.Fatalf("stderr does not name the tool as its card does (%q):\n%q", safe.ToolName(name), errs)
	}
}

// On a terminal that is both stdout and stderr, a notice said while the reply's line is open
// starts on a line of its own; stdout alone still gets the reply's text only.
func TestANoticeStartsItsOwnLineOnASharedTerminal(t *testing.T) {
	for _, shared := range []bool{false, true} {
		h, err := fixtures.NewHandler(fixtures.Options{})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		reg, err := tools.NewRegistry(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		reg.Clean = safe.Text
		c := chat.New(chat.Config{Model: "text-then-tool", Tools: perform.Toolbox(reg)}, nil)
		var term, out bytes.Buffer
		stdout := io.MultiWriter(&term, &out)
		Run(Options{Chat: c, Performer: &perform.Performer{Client: stream.NewClient(srv.URL+"/v1", ""), Tools: reg},
			Prompt: "hi", Out: stdout, Err: &term, ErrAlways: &term, SharedTerminal: shared})
		srv.Close()
		glued := regexp.MustCompile(`[^\n]phasechat: `).FindString(term.String())
		if shared && glued != "" {
			t.Fatalf("a notice is glued to the reply's line:\n%s", term.String())
		}
		if !shared && glued == "" {
			t.Fatalf("the scenario leaves no line open before a notice; the test shows nothing:\n%s", term.String())
		}
		if strings.Contains(out.String(), "phasechat:") || strings.HasPrefix(out.String(), "\n") {
			t.Fatalf("stdout got more than the reply: %q", out.String())
		}
	}
}
