package tmux

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
)

// approvalDir holds the mark scenario and the tools file defining mark, shared with the line
// mode's own tests.
const (
	approvalDir   = "../../../model/linemode/testdata/approval"
	approvalTools = approvalDir + "/tools.toml"
)

// expectModes checks terminal flags as stty -a names them ("icanon", "-echo", ...). phasechat
// switches modes right after it prints, so the flags are waited for (a loaded machine may take
// a while), not read once.
func (p *pane) expectModes(flags ...string) {
	p.t.Helper()
	var m map[string]bool
	missing := ""
	if !testwait.For(p.t, func() bool {
		m, missing = p.modes(), ""
		for _, f := range flags {
			if !m[f] {
				missing = f
				return false
			}
		}
		return true
	}) {
		p.t.Fatalf("the terminal lacks %s while phasechat runs: %v", missing, m)
	}
}

// TestAccessibleEnterRetriesAfterFlaky: flaky fails the first request; in the error phase
// the terminal reads single keys (no echo, Ctrl+C and output processing kept), and Enter
// retries, which succeeds.
func TestAccessibleEnterRetriesAfterFlaky(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	p := startLinePane(t, t.TempDir(), nil, "--accessible", "--base-url", a11yFixtures(t), "--model", "flaky")
	p.expect("You: ")
	p.expectModes("icanon", "echo", "isig", "opost")
	p.typeLine("hello")
	p.expect("Retry is available: Enter retries, Tab goes to the composer.")
	p.expectModes("-icanon", "-echo", "isig", "opost", "icrnl")
	p.keys("Enter")
	p.expect("Assistant: Hello! This is a plain streamed reply, sent one word at a time.")
	p.expect("Status: Answer ready.")
	p.expect("You: ")
	p.keys("C-d")
	p.exit("0")
	raw := p.raw()
	got := statusLinesOf(raw)
	if len(got) != 4 || got[0] != got[2] || !strings.Contains(got[1], "HTTP 500") || got[3] != "Status: Answer ready." {
		t.Fatalf("status lines %q: want writing, the HTTP 500, writing again, answer ready", got)
	}
	expectAppendOnly(t, raw)
}

// TestAccessibleApprovals: a side-effecting tool (mark, from a --tools file; it appends to
// marker.txt) asks first; y runs it, n declines it and it does not run. The question is one
// Status line; answering it prints a Tool line, not another Status line.
func TestAccessibleApprovals(t *testing.T) {
	const question = "Status: Allow mark with text=hi? y runs it, n declines, A allows mark for this session. Esc stops."
	tools, err := filepath.Abs(approvalTools)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key, line string
		ran       bool
	}{
		{"y", "Tool: mark done in ", true},
		{"n", "Tool: mark not run: The user declined to run this tool.", false},
	} {
		t.Run(tc.key, func(t *testing.T) {
			t.Parallel()
			requireTmux(t)
			dir := t.TempDir()
			p := startLinePane(t, dir, nil, "--accessible", "--base-url", a11yFixtures(t), "--model", "mark", "--tools", tools)
			p.expect("You: ")
			p.typeLine("note hi")
			p.expect("Tool: mark is waiting for your approval")
			p.expect(question)
			p.answer(tc.key, tc.line)
			p.expect("Status: Answer ready.")
			p.expect("You: ")
			p.keys("C-d")
			p.exit("0")
			_, err := os.Stat(filepath.Join(dir, "marker.txt"))
			if ran := err == nil; ran != tc.ran {
				t.Fatalf("mark ran: %v, want %v", ran, tc.ran)
			}
			raw := p.raw()
			want := []string{
				"Status: Writing a reply. Esc stops generating.",
				"Status: Working on mark. Esc stops generating.",
				question,
				"Status: Writing a reply. Esc stops generating.",
				"Status: Answer ready.",
			}
			if got := statusLinesOf(raw); !reflect.DeepEqual(got, want) {
				t.Fatalf("status lines\n%q\nwant\n%q", got, want)
			}
			expectAppendOnly(t, raw)
		})
	}
}

// TestAccessibleCtrlCStopsAndQuits: Ctrl+C while a reply streams stops it (the partial reply
// and the Stopped status are printed), phasechat exits 0, and the terminal is as it was.
func TestAccessibleCtrlCStopsAndQuits(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	fs := a11yServer(t)
	p := startLinePane(t, t.TempDir(), nil, "--accessible", "--base-url", fs.URL+"/v1", "--model", "slow-drip")
	p.expect("You: ")
	p.typeLine("drip")
	p.expect("Status: Writing a reply. Esc stops generating.")
	p.expectModes("-icanon", "-echo", "isig", "opost", "icrnl")
	dripsSent(t, fs)
	p.keys("C-c")
	p.expect("Assistant: drip1")
	p.expect("Status: Stopped. The partial reply is kept.")
	p.exit("0")
	expectAppendOnly(t, p.raw())
}
