package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
)

// replayedOutcome is the outcome `phasechat replay` prints last.
var replayedOutcome = regexp.MustCompile(`(?m)^-- ([a-z]+)`)

// askFor is a streamed request for scenario in a format: its path and body.
func askFor(format, scenario string) (path, body string) {
	switch format {
	case "anthropic":
		return "/v1/messages", `{"model":"` + scenario + `","stream":true,"max_tokens":9,"messages":[{"role":"user","content":"hi"}]}`
	case "responses":
		return "/v1/responses", `{"model":"` + scenario + `","stream":true,"input":"hi"}`
	}
	return "/v1/chat/completions", `{"model":"` + scenario + `","stream":true,"messages":[{"role":"user","content":"hi"}]}`
}

// For every built-in scenario (but those that stall until the client leaves), the outcome the
// fixture server's access log gives an answer is the one `phasechat replay` reports for the
// bytes the client got: an answer that ends in an error event is logged as an error.
func TestTheAccessLogSaysTheOutcomeReplaySays(t *testing.T) {
	var log syncBuffer
	h, err := fixtures.NewHandler(fixtures.Options{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	dir := t.TempDir()
	n := 0
	for _, name := range fixtures.Names() {
		s, _ := fixtures.Lookup(name)
		if s.Stream.End == fixtures.EndStall {
			continue
		}
		format := s.Formats()[0]
		t.Run(name, func(t *testing.T) {
			path, body := askFor(format, name)
			resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body) // a reset ends the read with an error: what came is kept
			resp.Body.Close()
			n++
			var entry struct {
				Outcome string `json:"outcome"`
			}
			testwait.Until(t, func() bool { return strings.Count(log.String(), "\n") >= n }, "access log line %d", n)
			lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
			if err := json.Unmarshal([]byte(lines[n-1]), &entry); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, name+".body")
			if err := os.WriteFile(file, got, 0o600); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			runReplay([]string{file}, strings.NewReader(""), &out, &errOut)
			m := replayedOutcome.FindStringSubmatch(out.String())
			if m == nil {
				t.Fatalf("replay printed no outcome:\n%s%s", out.String(), errOut.String())
			}
			if entry.Outcome != m[1] {
				t.Fatalf("the access log says %q, replay of the body says %q:\n%s", entry.Outcome, m[1], lines[n-1])
			}
		})
	}
}
