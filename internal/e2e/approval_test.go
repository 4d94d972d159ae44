//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
)

// noteTool writes its arguments to note.json: a side effect the chat must ask about.
const noteTool = `[[tool]]
name = "make_note"
description = "Save a note."
argv = ["/bin/sh", "-c", "cat > note.json && echo noted"]
side_effects = true
timeout = "5s"
[tool.parameters]
type = "object"
required = ["text"]
properties.text = { type = "string" }
`

// A side-effecting user-defined tool waits for y/n; y runs it, n does not and the model is
// told so in the follow-up request (T2, T7); with no one to ask, it is refused (T2).
func TestSideEffectsWaitForApproval(t *testing.T) {
	tests := []struct {
		name     string
		canAsk   bool
		decision chat.Decision
		result   string // the tool message the model reads
		ran      bool
	}{
		{"denied", true, chat.Deny, "The user declined to run this tool.", false},
		{"allowed", true, chat.Allow, "noted", true},
		{"no terminal", false, 0, "there is no terminal to ask", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, fixtures.Options{}, map[string]string{"note": oneCall("note", "make_note", `{"text":"buy milk"}`)})
			reg := newRegistry(t, nil, noteTool)
			s := newSession(t, srv, chat.Config{Model: "note", CanAsk: tt.canAsk}, nil, reg, nil)
			note := filepath.Join(reg.Root(), "note.json")

			if tt.canAsk {
				s.start("note that I need milk")
				s.until("the approval question", s.chat().Asking)
				st := s.chat().State
				if st.Phase != phase.StreamingTool || !strings.Contains(phase.Status(st), "make_note") || !strings.Contains(st.Ask, "buy milk") {
					t.Fatalf("asking in phase %s with status %q and detail %q", st.Phase, phase.Status(st), st.Ask)
				}
				if _, err := os.Stat(note); err == nil {
					t.Fatal("the tool ran before it was allowed")
				}
				if n := len(srv.Requests()); n != 1 {
					t.Fatalf("%d requests while asking, want 1", n)
				}
				s.d.Apply(s.chat().Approve(tt.decision))
				s.until("the turn is over", s.turnOver)
			} else {
				s.submit("note that I need milk")
			}
			s.expectComplete()

			written, err := os.ReadFile(note)
			if (err == nil) != tt.ran || (tt.ran && string(written) != `{"text":"buy milk"}`) {
				t.Fatalf("note.json: %q (%v); want it written: %v", written, err, tt.ran)
			}
			follow := srv.Last(t)
			mustValidate(t, follow)
			tm := toolMessages(follow)
			if len(tm) != 1 || !strings.Contains(tm[0].text(), tt.result) {
				t.Fatalf("the model was told %+v, want %q", tm, tt.result)
			}
			quoted := strings.TrimSpace(tm[0].text())
			quoted = quoted[:min(len(quoted), 30)]
			if reply := s.lastReply(); !strings.Contains(reply, "make_note → "+quoted) {
				t.Fatalf("the model's answer does not quote the result:\n%s", reply)
			}
		})
	}
}

// Esc while a call waits for approval: it never ran, so it is dropped from the history
// (docs/architecture.md, Outcomes), and the next request is valid.
func TestEscWhileAsking(t *testing.T) {
	const model = "ask"
	file := scenarioFile("e2e: a side effect, then the stream stalls", "alternate text",
		textLine(model, "Noting."),
		callLine(model, 0, "call_n", "make_note", `{"text":"x"}`),
		textLine(model, " More."),
		"stall")
	srv := newServer(t, fixtures.Options{}, map[string]string{model: file})
	reg := newRegistry(t, nil, noteTool)
	s := newSession(t, srv, chat.Config{Model: model, CanAsk: true}, nil, reg, nil)
	s.start("note x")
	s.until("the approval question", s.chat().Asking)
	s.d.Apply(s.chat().Stop())
	if s.chat().Asking() || s.chat().State.Phase != phase.Complete {
		t.Fatalf("after Esc: asking %v, phase %s", s.chat().Asking(), s.chat().State.Phase)
	}
	s.submit("never mind")
	s.expectComplete()
	next := srv.Last(t)
	mustValidate(t, next)
	if tm := toolMessages(next); len(tm) != 0 {
		t.Fatalf("a call that never ran was answered: %+v", tm)
	}
	if _, err := os.Stat(filepath.Join(reg.Root(), "note.json")); err == nil {
		t.Fatal("a call stopped while waiting for approval ran")
	}
}

// "a" (allow always) holds for the rest of the session, buffered answers included.
func TestAllowAlwaysLastsTheSession(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, map[string]string{"note": oneCall("note", "make_note", `{"text":"buy milk"}`)})
	reg := newRegistry(t, nil, noteTool)
	s := newSession(t, srv, chat.Config{Model: "note", CanAsk: true, NoStream: true}, nil, reg, nil)
	s.start("note milk")
	s.until("the approval question", s.chat().Asking)
	s.d.Apply(s.chat().Approve(chat.AllowAlways))
	s.until("the turn is over", s.turnOver)
	s.expectComplete()
	s.start("note milk again")
	s.until("the turn is over without a question", func() bool {
		if s.chat().Asking() {
			t.Fatal("asked again after allow-always")
		}
		return s.turnOver()
	})
	s.expectComplete()
	follow := srv.Last(t)
	mustValidate(t, follow)
	if tm := toolMessages(follow); len(tm) != 2 || tm[1].text() != "noted\n" {
		t.Fatalf("the second note's result: %+v", tm)
	}
}
