package linemode

import (
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

func (f *fake) card(i int) *draftCard {
	for len(f.reply().Cards) <= i {
		f.reply().Cards = append(f.reply().Cards, draftCard{Status: phase.CallPending})
	}
	return &f.reply().Cards[i]
}

// tool sets the phase to streaming-tool on a tool frame naming name.
func (f *fake) tool(name string) {
	f.st.Phase, f.st.Tool, f.st.Ask = phase.StreamingTool, name, ""
}

func TestAnnounceTools(t *testing.T) {
	const question = "Status: Allow mark with text=hi? y runs it, n declines, A allows mark for this session. Esc stops."
	for name, steps := range map[string][]announceStep{
		"start and end once each; a new tool name prints no status": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) { f.tool("list_dir"); f.card(0).Name = "list_dir" }, []string{"Status: Working on list_dir. Esc stops generating."}},
			{func(f *fake) { f.card(0).ArgsBytes = 12 }, nil},
			{func(f *fake) {
				c := f.card(0)
				c.Status, c.Summary, c.Args = phase.CallRunning, `path="my dir" tags=[2 items] opts={…}`, `{"path":"my dir"}`
			}, []string{"Tool: list_dir started: path='my dir' tags=2 items opts=…"}},
			{func(f *fake) { f.tool("read_file"); f.card(1).Name = "read_file" }, nil},
			{func(f *fake) { f.card(1).Status = phase.CallRunning }, []string{"Tool: read_file started"}},
			{func(f *fake) {
				c := f.card(0)
				c.Status, c.Duration, c.Result = phase.CallDone, 12*time.Millisecond, "\n  a.txt {x}\nb.txt"
			}, []string{"Tool: list_dir done in 12 ms: a.txt x"}},
			{func(f *fake) {
				c := f.card(1)
				c.Status, c.Duration, c.Result = phase.CallError, 3*time.Millisecond, `open "README.md": no such file`
			}, []string{"Tool: read_file failed in 3 ms: open 'README.md': no such file"}},
			{func(f *fake) { f.card(0).Result = "changed" }, nil},
		},
		"done without output": {
			{func(f *fake) { f.submit(); f.tool("now"); f.card(0).Name = "now"; f.card(0).Status = phase.CallRunning },
				[]string{"Tool: now started", "Status: Working on now. Esc stops generating."}},
			{func(f *fake) { f.card(0).Status = phase.CallDone }, []string{"Tool: now done in 0 ms, no output"}},
		},
		"a long result is cut": {
			{func(f *fake) { f.submit(); f.tool("t"); f.card(0).Name = "t"; f.card(0).Status = phase.CallRunning },
				[]string{"Tool: t started", "Status: Working on t. Esc stops generating."}},
			{func(f *fake) { f.card(0).Status, f.card(0).Result = phase.CallDone, strings.Repeat("ab ", 60) },
				[]string{"Tool: t done in 0 ms: " + strings.TrimSpace(strings.Repeat("ab ", 33)) + "…"}},
		},
		"calls that never ran say not run, and why": {
			{func(f *fake) { f.submit(); f.tool("read_file"); f.card(0).Name = "read_file" }, []string{"Status: Working on read_file. Esc stops generating."}},
			{func(f *fake) {
				f.card(0).Status, f.card(0).Result = phase.CallError, "the arguments are not valid JSON"
				f.card(1).Name, f.card(1).Status, f.card(1).Result = "mark", phase.CallError, "Not run: this tool has side effects and there is no terminal to ask."
				f.card(2).Name, f.card(2).Status = "", phase.CallError
			}, []string{
				"Tool: read_file not run: the arguments are not valid JSON",
				"Tool: mark not run: this tool has side effects and there is no terminal to ask.",
				"Tool: a tool not run: no reason given",
			}},
		},
		"stopped while running": {
			{func(f *fake) {
				f.submit()
				f.tool("slow")
				f.card(0).Name = "slow"
				f.card(0).Status = phase.CallRunning
			},
				[]string{"Tool: slow started", "Status: Working on slow. Esc stops generating."}},
			{func(f *fake) {
				f.card(0).Status, f.card(0).Result = phase.CallError, "stopped by the user"
				f.end(phase.Complete)
				f.st.Stopped = true
			}, []string{"Tool: slow failed: stopped by the user", "Status: Stopped. The partial reply is kept."}},
		},
		"approval: the question once, then the run; a denial is not run": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) { f.text("I will note it.") }, nil},
			{func(f *fake) {
				f.tool("mark")
				c := f.card(0)
				c.Name, c.Status, c.Summary, c.Asking = "mark", phase.CallRunning, "text=hi", true
				f.st.Ask = "text=hi"
			}, []string{"Assistant: I will note it.", "Tool: mark is waiting for your approval", question}},
			{func(f *fake) {}, nil},
			{func(f *fake) { f.card(0).Asking = false; f.st.Ask = "" }, []string{"Tool: mark started: text=hi"}},
			{func(f *fake) { f.card(0).Status = phase.CallDone; f.card(0).Result = "noted" }, []string{"Tool: mark done in 0 ms: noted"}},
			{func(f *fake) {
				c := f.card(1)
				c.Name, c.Status, c.Summary, c.Asking = "mark", phase.CallRunning, "text=hi", true
				f.st.Ask = "text=hi"
			}, []string{"Tool: mark is waiting for your approval", question}},
			{func(f *fake) {
				c := f.card(1)
				c.Asking, c.Status, c.Result = false, phase.CallError, "The user declined to run this tool."
				f.st.Ask = ""
			}, []string{"Tool: mark not run: The user declined to run this tool."}},
		},
		"the same question for the next call is asked again": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) {
				f.tool("mark")
				for i := range 2 {
					c := f.card(i)
					c.Name, c.Status, c.Summary, c.Asking = "mark", phase.CallRunning, "text=hi", true
				}
				f.st.Ask = "text=hi"
			}, []string{"Tool: mark is waiting for your approval", "Tool: mark is waiting for your approval", question}},
			{func(f *fake) { f.card(0).Asking = false }, []string{"Tool: mark started: text=hi", question}},
		},
	} {
		t.Run(name, func(t *testing.T) { runSteps(t, steps) })
	}
}

// TestAnnounceHostileInputs sends every hostile input through every channel: reply text (in
// its deltas when it has them), reasoning, tool name, summary, result and error reason. The
// output holds no unsafe rune, shows the attack, and keeps JSON punctuation out of Status and
// Tool lines.
func TestAnnounceHostileInputs(t *testing.T) {
	for _, h := range safetest.HostileInputs {
		t.Run(h.Name, func(t *testing.T) {
			f := &fake{}
			a := NewAnnouncer(f.st, f.follow())
			var out []string
			say := func() { out = append(out, a.announce(f)...) }
			f.submit()
			say()
			deltas := h.Deltas
			if deltas == nil {
				deltas = []string{h.Input}
			}
			for _, d := range deltas {
				f.text(d)
				say()
			}
			f.reply().Reasoning = h.Input
			f.tool(h.Input)
			c := f.card(0)
			c.Name, c.Status, c.Summary = h.Input, phase.CallRunning, h.Input
			say()
			c.Status, c.Result = phase.CallDone, h.Input
			say()
			f.end(phase.Error)
			f.st.Reason = h.Input
			say()
			all := strings.Join(out, "\n")
			if err := safetest.CheckClean(all); err != nil {
				t.Fatalf("unsafe output: %v\n%s", err, all)
			}
			if !strings.Contains(all, strings.Trim(h.Visible, "\n")) && !strings.Contains(all, spoken(h.Visible)) {
				t.Errorf("the attack %q is not shown:\n%s", h.Visible, all)
			}
			for _, l := range out {
				if (strings.HasPrefix(l, "Status: ") || strings.HasPrefix(l, "Tool: ")) && strings.ContainsAny(l, `{}[]"`) {
					t.Errorf("JSON punctuation in %q", l)
				}
			}
		})
	}
}
