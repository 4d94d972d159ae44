package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/stream/wire"
)

// turnLog runs one turn of model with prompt, streamed or buffered, and returns its session log.
func turnLog(t *testing.T, srv *server, reg *tools.Registry, model, prompt string, buffered bool) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	w := sessionlog.Later(path, nil)
	s := newSession(t, srv, chat.Config{Model: model, NoStream: buffered}, nil, reg, w)
	s.submit(prompt)
	s.expectComplete()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The same turn streamed and buffered leaves byte-identical session logs but for the records
// of the request in flight (the text as it came, in chunks) and where the cards stood in the text (a streamed call may come before its text, a buffered answer's text
// is shown first): tools run early, but their results join the history in call order once
// the stream is done.
func TestStreamedAndBufferedLogsAreIdentical(t *testing.T) {
	tests := []struct{ model, prompt string }{
		{"tool-then-text", "show me the directory"},
		{fixtures.DemoModel, "what time is it"},
		{"parallel-tools", "run the three"},
		{"usage", "count"},
	}
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			streamed := turnLog(t, srv, reg, tt.model, tt.prompt, false)
			buffered := turnLog(t, srv, reg, tt.model, tt.prompt, true)
			if !bytes.Equal(withoutTimesAndOrder(t, streamed), withoutTimesAndOrder(t, buffered)) {
				t.Fatalf("the logs differ\nstreamed:\n%s\nbuffered:\n%s", streamed, buffered)
			}
			if n := bytes.Count(streamed, []byte("\n")); n < 2 {
				t.Fatalf("a log of %d lines:\n%s", n, streamed)
			}
		})
	}
	reqs := srv.Requests()
	if !reqs[0].Stream || reqs[len(reqs)-1].Stream {
		t.Fatal("the runs must send stream: true, then stream: false")
	}
}

// A log cut anywhere mid-turn — mid-line, as a crash mid-write leaves it, or at a line's end,
// e.g. right after the assistant message with tool calls — resumes into a valid request.
func TestResumeACutLog(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	full := turnLog(t, srv, reg, "parallel-tools", "run the three", false)
	lines := bytes.SplitAfter(full, []byte("\n"))
	lines = lines[:len(lines)-1] // the empty piece after the last newline

	type cut struct {
		name   string
		at     int // bytes kept
		cutOff bool
	}
	var cuts []cut
	offset := 0
	for i, line := range lines {
		role := "?"
		for _, r := range []string{"user", "assistant", "tool"} {
			if bytes.Contains(line, []byte(`"role":"`+r+`"`)) {
				role = r
			}
		}
		if role == "assistant" && bytes.Contains(line, []byte("tool_calls")) {
			role = "assistant with tool calls"
		}
		cuts = append(cuts,
			cut{name: "mid-line " + itoa(i+1) + " (" + role + ")", at: offset + len(line)/2, cutOff: true},
			cut{name: "after line " + itoa(i+1) + " (" + role + ")", at: offset + len(line)})
		offset += len(line)
	}
	for _, c := range cuts {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cut.jsonl")
			if err := os.WriteFile(path, full[:c.at], 0o600); err != nil {
				t.Fatal(err)
			}
			saved, err := sessionlog.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if saved.CutOff != c.cutOff {
				t.Fatalf("CutOff = %v, want %v", saved.CutOff, c.cutOff)
			}
			before := len(srv.Requests())
			s := newSession(t, srv, chat.Config{Model: "text"}, saved.Messages, reg, nil)
			s.submit("go on")
			s.expectComplete()
			reqs := srv.Requests()
			if len(reqs) != before+1 {
				t.Fatalf("%d requests after resuming, want 1", len(reqs)-before)
			}
			next := reqs[before]
			mustValidate(t, next)
			if last := next.Messages[len(next.Messages)-1]; last.text() != "go on" {
				t.Fatalf("the request ends with %+v", last)
			}
			// Calls whose results were not logged are answered as interrupted.
			interrupted := 0
			for _, m := range toolMessages(next) {
				if strings.Contains(m.text(), "session ended before this tool finished") {
					interrupted++
				}
			}
			if want := unanswered(saved.Messages); interrupted != want {
				t.Fatalf("%d calls answered as interrupted, want %d:\n%s", interrupted, want, next.Raw)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// unanswered counts the calls of the last assistant message that no logged result answers.
func unanswered(msgs []wire.Message) int {
	n := 0
	for _, m := range msgs {
		switch m.Role {
		case "assistant":
			n = len(m.Calls())
		case "tool":
			n--
		default:
			n = 0
		}
	}
	return n
}

// withoutTimesAndOrder is a log's final records (the live ones of a request in flight left
// out) with each one's time and checksum dropped and each message's parts put
// in one order (reasoning, text, calls; each kind joined or in its order): the records of two
// runs are the same when all but the times and where the cards stood in the text are.
func withoutTimesAndOrder(t *testing.T, log []byte) []byte {
	t.Helper()
	var out []byte
	for _, line := range bytes.SplitAfter(log, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		if _, ok := rec["time"]; !ok {
			t.Fatalf("a record without its time: %s", line)
		}
		if string(rec["type"]) == `"live"` {
			continue // how the text came in chunks, and when tools started
		}
		delete(rec, "time")
		delete(rec, "crc") // a checksum of the line, time included
		if msg, ok := rec["message"]; ok {
			rec["message"] = partsInOneOrder(t, msg)
		}
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		out = append(append(out, b...), '\n')
	}
	return out
}

// partsInOneOrder is a logged message with its parts as reasoning, text, then calls.
func partsInOneOrder(t *testing.T, msg json.RawMessage) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	var parts []map[string]string
	if err := json.Unmarshal(msg, &m); err != nil || json.Unmarshal(m["parts"], &parts) != nil {
		return msg
	}
	joined := map[string]string{}
	var calls []map[string]string
	for _, p := range parts {
		if p["type"] == "call" {
			calls = append(calls, p)
		} else {
			joined[p["type"]] += p["text"]
		}
	}
	var out []map[string]string
	for _, kind := range []string{"reasoning", "text"} {
		if joined[kind] != "" {
			out = append(out, map[string]string{"type": kind, "text": joined[kind]})
		}
	}
	b, _ := json.Marshal(append(out, calls...))
	m["parts"] = b
	b, _ = json.Marshal(m)
	return b
}
