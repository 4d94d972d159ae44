package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/sessions"
)

// replyServer answers every chat request on 127.0.0.1 with reply, streamed in one delta.
func replyServer(t *testing.T, reply string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		delta, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]string{"content": reply}}}})
		fmt.Fprintf(w, "data: %s\n\n", delta)
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// scripts is a reply in scripts whose invisible characters are part of their spelling, with
// bidi controls that are text too.
const scripts = "می\u200cخواهم שלום\u200f hy\u00adphen a\u202eb"

// hostileReply is scripts with what drives a terminal: a title, an 8-bit CSI, a bracketed
// paste end followed by a command, a carriage return.
const hostileReply = scripts + " \x1b]0;pwned\x07ok \u009b31mred\x1b[201~rm -rf ~\r!"

func holdsTerminalControl(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || 0x80 <= r && r <= 0x9f {
			return true
		}
	}
	return false
}

// TestOneShotToAPipeKeepsTheTextAndDropsTheControls: -p into a pipe writes the reply's
// characters exactly, joiners and marks included, and nothing that drives a terminal; --raw
// writes the bytes as they came.
func TestOneShotToAPipeKeepsTheTextAndDropsTheControls(t *testing.T) {
	base := replyServer(t, hostileReply)
	r := runOneShotChild(t, t.TempDir(), "", "--base-url", base, "--model", "m", "--no-save", "-p", "hi")
	if want := scripts + " ok redrm -rf ~!\n"; r.stdout != want {
		t.Errorf("stdout %q\nwant   %q", r.stdout, want)
	}
	raw := runOneShotChild(t, t.TempDir(), "", "--base-url", base, "--model", "m", "--no-save", "--raw", "-p", "hi")
	if raw.stdout != hostileReply+"\n" {
		t.Errorf("--raw stdout %q, want the reply's bytes", raw.stdout)
	}
}

// TestOneShotJSONEscapesControls: the JSON formats write C1 and bidi controls as \u escapes,
// so printing them drives nothing, and they decode to the reply as it came.
func TestOneShotJSONEscapesControls(t *testing.T) {
	base := replyServer(t, hostileReply)
	for _, format := range []string{"json", "jsonl"} {
		r := runOneShotChild(t, t.TempDir(), "", "--base-url", base, "--model", "m", "--no-save", "--format", format, "-p", "hi")
		if holdsTerminalControl(r.stdout) || strings.Contains(r.stdout, "\u202e") {
			t.Errorf("--format %s writes a control raw: %q", format, r.stdout)
		}
		var content strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			var v struct{ Content, Delta, Type string }
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("--format %s: %v in %q", format, err, line)
			}
			content.WriteString(v.Content)
			if v.Type == "text" {
				content.WriteString(v.Delta)
			}
		}
		if content.String() != hostileReply {
			t.Errorf("--format %s content %q, want %q", format, content.String(), hostileReply)
		}
	}
}

// TestOneShotNamesAFileSafely: a log file's name is written through the sanitiser when a
// one-shot turn resumes it.
func TestOneShotNamesAFileSafely(t *testing.T) {
	base := replyServer(t, "fine")
	data := t.TempDir()
	file := filepath.Join(t.TempDir(), "log\x1b]0;pwned\x07.jsonl")
	first := runOneShotChild(t, data, "", "--base-url", base, "--model", "m", "--log", file, "-p", "hi")
	second := runOneShotChild(t, data, "", "--base-url", base, "--model", "m", "--resume", file, "-p", "again")
	if !strings.Contains(second.stderr, "␛]0;pwned␇") {
		t.Errorf("stderr does not name the file: %q", second.stderr)
	}
	for _, r := range []childRun{first, second} {
		if holdsTerminalControl(r.stderr) {
			t.Errorf("stderr writes the file name raw: %q", r.stderr)
		}
	}
}

// TestSessionsJSONEscapesControls: sessions export --format json and sessions list --json
// write C1 and bidi controls as \u escapes, and the strings decode unchanged.
func TestSessionsJSONEscapesControls(t *testing.T) {
	ids := seedSessions(t, hostileReply)
	code, out, _ := runCLI("sessions", "export", ids[0], "--format", "json")
	var exp sessions.Export
	if code != 0 || json.Unmarshal([]byte(out), &exp) != nil || len(exp.Messages) != 2 {
		t.Fatalf("export json: %d %q", code, out)
	}
	if holdsTerminalControl(out) || strings.Contains(out, "\u202e") {
		t.Errorf("export json writes a control raw: %q", out)
	}
	if exp.Messages[1].Text() != "answer to "+hostileReply {
		t.Errorf("exported content %q", exp.Messages[1].Text())
	}
	code, out, _ = runCLI("sessions", "list", "--json")
	if code != 0 || holdsTerminalControl(out) || strings.Contains(out, "\u202e") {
		t.Errorf("list --json: %d %q", code, out)
	}
}

// TestLineModeSaysAServersErrorSafely: a server's error body, said on stderr when a piped line
// mode session ends with the reply failed, goes through the sanitiser.
func TestLineModeSaysAServersErrorSafely(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"bad \u001b]0;pwned\u0007 request \u009b2J\u202eevil"}}`)
	}))
	t.Cleanup(srv.Close)
	r := runOneShotChild(t, t.TempDir(), "hi\n", "--base-url", srv.URL+"/v1", "--model", "m", "--no-save", "--accessible")
	if !strings.Contains(r.stderr, "pwned") {
		t.Fatalf("stderr does not say the error: %q", r.stderr)
	}
	if holdsTerminalControl(r.stderr) || strings.Contains(r.stderr, "\u202e") {
		t.Errorf("stderr writes the server's controls raw: %q", r.stderr)
	}
}

// TestOneShotKeepsNoKeyOfThePrompt: a key pasted into a -p prompt is in no file the
// conversation leaves (the session's title in the index, its log) and not in sessions list.
func TestOneShotKeepsNoKeyOfThePrompt(t *testing.T) {
	const key = "sk-title-secret-0123456789"
	base := replyServer(t, "noted")
	data := t.TempDir()
	cmd := oneShotCommand(t, t.TempDir(), data, "--base-url", base, "--model", "m", "-p", "my key is "+key)
	cmd.Env = append(cmd.Env, "OPENAI_API_KEY="+key)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	filepath.WalkDir(data, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), key) {
				t.Errorf("%s holds the key: %q", path, b)
			}
		}
		return nil
	})
	t.Setenv("XDG_DATA_HOME", data)
	if _, out, _ := runCLI("sessions", "list", "--all"); strings.Contains(out, key) || !strings.Contains(out, "my key is") { // a one-shot run: --all lists it
		t.Errorf("sessions list: %q", out)
	}
}

// TestAnUnusedProvidersKeyIsASecretFromTheStart: the key of a provider not chosen this run
// (its api_key_env, its literal api_key) is hidden from the start, wherever it comes back; a
// header value that is no credential (X-Title) stays readable.
func TestAnUnusedProvidersKeyIsASecretFromTheStart(t *testing.T) {
	const envKey, literal = "sk-unused-env-0123456789", "sk-unused-literal-0123456789"
	base := replyServer(t, "env "+envKey+" literal "+literal+" title phasechat-app")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	os.WriteFile(cfg, []byte(`default = "main/m"
[provider.main]
base_url = "`+base+`"
headers = { "X-Title" = "phasechat-app" }
[provider.other]
base_url = "http://127.0.0.1:1/v1"
api_key_env = "OTHER_PROVIDER_KEY"
[provider.lit]
base_url = "http://127.0.0.1:2/v1"
api_key = "`+literal+`"
`), 0o600)
	cmd := oneShotCommand(t, dir, t.TempDir(), "--config", cfg, "--no-save", "-p", "hi")
	cmd.Env = append(cmd.Env, "OTHER_PROVIDER_KEY="+envKey)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Contains(string(out), envKey) || strings.Contains(string(out), literal) || !strings.Contains(string(out), "title phasechat-app") {
		t.Errorf("stdout %q", out)
	}
}
