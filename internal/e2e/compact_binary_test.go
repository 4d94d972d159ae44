//go:build unix

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
)

// The real binary: /compact in the line mode, then --continue in a one-shot run. The second
// process reads the compaction back from the session log and sends the summary, not the turn
// it stands for, in a history the strict server accepts.
func TestContinueAfterCompactSendsTheSummary(t *testing.T) {
	bin := buildPhasechat(t)
	srv := newServer(t, fixtures.Options{Side: "text"}, map[string]string{"strict-compact": strictCompact})
	dir := t.TempDir()
	env := append(os.Environ(), "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_CACHE_HOME="+dir,
		"OPENAI_API_KEY=", "OPENAI_BASE_URL=")
	phasechat := func(stdin string, args ...string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(bin, append(args, "--base-url", srv.URL, "--model", "strict-compact")...)
		cmd.Dir, cmd.Env = dir, env
		cmd.Stdin = strings.NewReader(stdin)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("phasechat %v: %v\n%s\n%s", args, err, out.String(), errOut.String())
		}
		return out.String(), errOut.String()
	}
	out, _ := phasechat("alpha-question\nbeta-question\ngamma-question\n/compact\n", "--accessible")
	if !strings.Contains(out, chat.SummaryHeading) || !strings.Contains(out, "in place of the first 1 turn") {
		t.Fatalf("the line mode did not compact:\n%s", out)
	}
	summary := srv.Last(t).Raw
	if !bytes.Contains(summary, []byte(chat.CompactPrompt[:40])) || bytes.Contains(summary, []byte(`"tools"`)) {
		t.Fatalf("the last request of the first run is not the summary request:\n%s", summary)
	}
	before := len(srv.Requests())
	out, _ = phasechat("", "--continue", "-p", "delta-question")
	if !strings.Contains(out, "Tool results received") {
		t.Fatalf("the continued turn did not complete:\n%s", out)
	}
	next := srv.Requests()[before].Raw
	for _, want := range []string{chat.SummaryHeading, "beta-question", "gamma-question", "delta-question"} {
		if !bytes.Contains(next, []byte(want)) {
			t.Errorf("the continued request lacks %q:\n%s", want, next)
		}
	}
	if bytes.Contains(next, []byte("alpha-question")) {
		t.Errorf("the continued request still carries the summarised turn:\n%s", next)
	}
}
