//go:build unix

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/tools"
)

// barrierScript marks its tool ($1) as started, then waits until all three have started. Run
// alone, or one after another, it waits until its tool's timeout kills it.
const barrierScript = `touch "started_$1"
while [ ! -e started_a ] || [ ! -e started_b ] || [ ! -e started_c ]; do sleep 0.005; done
printf "%s met the other two" "$1"`

// barrierTool is a [[tool]] table running barrierScript as name, marked letter.
func barrierTool(name, letter, timeout string) string {
	return `[[tool]]
name = "` + name + `"
description = "waits until wait_a, wait_b and wait_c have all started"
argv = ["/bin/sh", "-c", '''` + barrierScript + `''', "sh", "` + letter + `"]
side_effects = false
timeout = "` + timeout + `"
`
}

// parallelBarrier is the parallel-tools scenario with its three calls renamed to the barrier
// tools: the same frames, fragments and pacing.
func parallelBarrier(t *testing.T) string {
	t.Helper()
	sc, ok := fixtures.Lookup("parallel-tools")
	if !ok {
		t.Fatal("the catalogue has no parallel-tools scenario")
	}
	text := string(fixtures.Format(sc))
	for old, renamed := range map[string]string{"now": "wait_a", "list_dir": "wait_b", "read_file": "wait_c"} {
		if !strings.Contains(text, ` "`+old+`"`+"\n") { // the name of a call line: call ID "NAME"
			t.Fatalf("parallel-tools no longer calls %s", old)
		}
		text = strings.ReplaceAll(text, ` "`+old+`"`+"\n", ` "`+renamed+`"`+"\n")
	}
	return text
}

// parallel-tools' three calls run at the same time: each tool waits, on a barrier, until all
// three have started, so a runner that ran them one after another would see the first time
// out and the test fail.
func TestParallelToolsOverlap(t *testing.T) {
	srv := newServer(t, fixtures.Options{Pace: 0.1}, map[string]string{"parallel-tools": parallelBarrier(t)})
	reg := newRegistry(t, nil, barrierTool("wait_a", "a", "2s")+barrierTool("wait_b", "b", "2s")+barrierTool("wait_c", "c", "2s"))
	s := newSession(t, srv, chat.Config{Model: "parallel-tools"}, nil, reg, nil)
	s.submit("run the three")
	s.expectComplete()

	follow := srv.Last(t)
	mustValidate(t, follow)
	got := toolMessages(follow)
	want := []string{"a met the other two", "b met the other two", "c met the other two"}
	if len(got) != len(want) {
		t.Fatalf("%d tool results, want %d: %+v", len(got), len(want), got)
	}
	for i, m := range got {
		if m.text() != want[i] {
			t.Errorf("result %d (%s) = %q, want %q: the tools did not all run at once", i, m.ToolCallID, m.text(), want[i])
		}
	}
	if reply := s.lastReply(); !strings.Contains(reply, "c met the other two") {
		t.Errorf("the model's follow-up does not quote the results:\n%s", reply)
	}
}

// The control: the barrier does hold a tool that runs alone, so the test above can fail.
func TestBarrierHoldsALoneTool(t *testing.T) {
	reg := newRegistry(t, nil, barrierTool("wait_a", "a", "300ms"))
	res := reg.Run(context.Background(), tools.Call{ID: "x", Name: "wait_a", Arguments: "{}"})
	if res.Outcome != tools.OutcomeTimedOut {
		t.Fatalf("a lone barrier tool ended %q (%s), want timed out", res.Outcome, res.Output)
	}
}

// The real parallel-tools scenario with the built-ins: three results, in call order, reach
// the model.
func TestParallelToolsBuiltins(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	if err := os.WriteFile(filepath.Join(reg.Root(), "README.md"), []byte("hello from the readme\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, srv, chat.Config{Model: "parallel-tools"}, nil, reg, nil)
	s.submit("run the three")
	s.expectComplete()
	follow := srv.Last(t)
	mustValidate(t, follow)
	got := toolMessages(follow)
	if len(got) != 3 || got[0].text() != nowText || !strings.Contains(got[1].text(), "README.md") || got[2].text() != "hello from the readme\n" {
		t.Fatalf("results of now, list_dir, read_file: %+v", got)
	}
}
