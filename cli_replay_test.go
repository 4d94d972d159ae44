package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	completeSSE  = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	truncatedSSE = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n"
	anthropicSSE = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"hi\"}}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	responsesSSE = "data: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\",\"delta\":\"hi\"}\n\n" +
		"data: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\"}}\n\n"
)

func TestRunReplay(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ok.sse")
	if err := os.WriteFile(file, []byte(completeSSE), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string // a substring of standard output
		stderr string // a substring of standard error
	}{
		{"file, text", []string{file}, "", 0, "hi\n-- complete (finish_reason stop)", ""},
		{"file, json", []string{"--json", file}, "", 0, `"outcome": "complete"`, ""},
		{"flag after the file", []string{file, "--trace"}, "", 0, `{"n":1,"event":"","data":`, ""},
		{"stdin by -", []string{"--json", "-"}, completeSSE, 0, `"content": "hi"`, ""},
		{"stdin when no file", []string{"--json"}, truncatedSSE, 1, `"outcome": "truncated"`, ""},
		{"incomplete exits 1", []string{}, truncatedSSE, 1, "-- truncated", ""},
		{"both formats", []string{"--json", "--trace"}, "", 2, "", "exclusive"},
		{"unknown flag", []string{"--yaml"}, "", 2, "", "unknown flag --yaml"},
		{"two files", []string{file, file}, "", 2, "", "one FILE at most"},
		{"missing file", []string{filepath.Join(dir, "nope.sse")}, "", 2, "", "no such file"},
		{"help", []string{"--help"}, "", 0, "usage: phasechat replay", ""},
		{"anthropic, detected", []string{"--json"}, anthropicSSE, 0, `"finish_reason": "stop"`, ""},
		{"anthropic, named", []string{"--wire", "anthropic"}, anthropicSSE, 0, "hi\n-- complete", ""},
		{"anthropic read as chat", []string{"--wire=chat"}, anthropicSSE, 1, "--wire anthropic", ""},
		{"responses, named", []string{"--wire=responses", "--json"}, responsesSSE, 0, `"content": "hi"`, ""},
		{"unknown format", []string{"--wire", "gemini"}, "", 2, "", "chat, anthropic or responses"},
		{"format missing", []string{"--wire"}, "", 2, "", "--wire needs a format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := runReplay(tt.args, strings.NewReader(tt.stdin), &out, &errOut)
			if code != tt.code || !strings.Contains(out.String(), tt.stdout) || !strings.Contains(errOut.String(), tt.stderr) {
				t.Errorf("code %d (want %d)\nstdout %q\nstderr %q", code, tt.code, out.String(), errOut.String())
			}
		})
	}
}
