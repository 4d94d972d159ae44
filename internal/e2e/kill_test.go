//go:build unix

package e2e

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// hangTool starts a child that sleeps, notes its own pid and the child's, says "started" and
// sleeps too: a tool that only ends when it is killed, with a child to be killed with it.
func hangTool(timeout string) string {
	return `[[tool]]
name = "hang"
description = "Never finishes."
argv = ["/bin/sh", "-c", '''sleep 30 & echo "$$ $!" > pids.tmp && mv pids.tmp pids; echo started; sleep 30''']
side_effects = false
timeout = "` + timeout + `"
`
}

// hangPIDs waits until the hang tool has written its pids (the shell's and its child's).
func hangPIDs(s *session, root string) []int {
	s.t.Helper()
	var pids []int
	s.until("the hang tool to start", func() bool {
		data, err := os.ReadFile(filepath.Join(root, "pids"))
		if err != nil {
			return false
		}
		for _, f := range strings.Fields(string(data)) {
			pid, err := strconv.Atoi(f)
			if err != nil {
				s.t.Fatalf("pids file %q", data)
			}
			pids = append(pids, pid)
		}
		return true
	})
	return pids
}

// expectGone waits until every pid has exited (a zombie left for init counts as exited).
func expectGone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		testwait.Until(t, func() bool { return exited(pid) }, "process %d still runs", pid)
	}
}

func exited(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	rest := data[strings.LastIndexByte(string(data), ')')+1:]
	fields := strings.Fields(string(rest))
	return len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X")
}

// A tool that sleeps past its timeout is killed with its child, and the model is told it
// timed out, with what it printed until then (T4).
func TestTimedOutToolIsKilledAndReported(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, map[string]string{"slow": oneCall("slow", "hang", "{}")})
	// Long enough that a loaded machine has started the tool and its child before the timeout
	// (the tool's output and pids are checked), short enough not to slow the suite much.
	reg := newRegistry(t, nil, hangTool("3s"))
	s := newSession(t, srv, chat.Config{Model: "slow"}, nil, reg, nil)
	s.start("run the slow tool")
	pids := hangPIDs(s, reg.Root())
	s.until("the turn is over", s.turnOver)
	s.expectComplete()
	expectGone(t, pids)

	follow := srv.Last(t)
	mustValidate(t, follow)
	tm := toolMessages(follow)
	want := "hang timed out after 3s and was stopped; its output until then:\nstarted"
	if len(tm) != 1 || strings.TrimSpace(tm[0].text()) != want {
		t.Fatalf("the model was told %+v, want %q", tm, want)
	}
	if card := s.chat().Entries()[1].Cards()[0]; !card.IsError() || card.Status() != phase.CallError || !strings.Contains(card.Result(), "timed out") {
		t.Fatalf("the card does not show the timeout: %+v", card)
	}
}

// Esc while a tool runs cancels it — its processes are gone, its result says it was stopped
// by the user — and leaves a history the next request can send. Once after the
// stream has ended, and once mid-stream with a second call still arriving (that call never
// ran, so it is dropped).
func TestEscCancelsARunningTool(t *testing.T) {
	const model = "esc"
	tests := []struct {
		name    string
		answer  []string
		content string
	}{
		{"after the stream", []string{
			chunkLine(model, map[string]any{"role": "assistant", "content": ""}, ""),
			callLine(model, 0, "call_e2e_1", "hang", "{}"),
			chunkLine(model, map[string]any{}, "tool_calls"),
			"data [DONE]"}, ""},
		{"mid-stream", []string{
			textLine(model, "Starting."),
			callLine(model, 0, "call_e2e_1", "hang", "{}"),
			callLine(model, 1, "call_e2e_2", "now", `{"ti`),
			"stall"}, "Starting."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Cleanup(func() { testwait.NoLeaks(t) }) // runs last: nothing of the turn is left
			file := scenarioFile("e2e: a call that hangs", append([]string{"alternate text"}, tt.answer...)...)
			srv := newServer(t, fixtures.Options{}, map[string]string{model: file})
			reg := newRegistry(t, nil, hangTool("30s"))
			s := newSession(t, srv, chat.Config{Model: model}, nil, reg, nil)
			s.start("run hang")
			pids := hangPIDs(s, reg.Root())
			if p := s.chat().State.Phase; p != phase.StreamingTool {
				t.Fatalf("phase %s while the tool runs", p)
			}
			s.d.Apply(s.chat().Stop())
			if st := s.chat().State; st.Phase != phase.Complete || phase.Status(st) != phase.StatusStopped {
				t.Fatalf("after Esc: phase %s, status %q", st.Phase, phase.Status(st))
			}
			expectGone(t, pids)

			want := []wire.Message{
				{Role: "user", Parts: wire.TextParts("run hang")},
				{Role: "assistant", Parts: wire.ReplyParts("", tt.content, []wire.ToolCall{{ID: "call_e2e_1", Name: "hang", Arguments: "{}"}}),
					End: phase.End{Why: phase.EndStopped}},
				{Role: "tool", ToolCallID: "call_e2e_1", Name: "hang", Parts: wire.TextParts("stopped by the user"),
					Ending: phase.Ending{Status: phase.CallInterrupted, Interruption: phase.Interruption{Why: phase.CutByUser, Stage: phase.CallRunning}}},
			}
			if got := s.chat().History; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("history after Esc:\n got %+v\nwant %+v", got, want)
			}

			s.submit("are you still there?")
			s.expectComplete()
			next := srv.Last(t)
			mustValidate(t, next)
			if tm := toolMessages(next); len(tm) != 1 || tm[0].ToolCallID != "call_e2e_1" || tm[0].text() != "stopped by the user" {
				t.Fatalf("the next request's tool messages: %+v", tm)
			}
		})
	}
}
