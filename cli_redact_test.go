package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	echoedKey      = "sk-echoed-key-4f1c9a2b7d"
	echoedPassword = "hunter2-url-password"
)

// echoStream is an answer from a server that repeats the caller's key in its content, its
// reasoning and a tool call's arguments, and the base URL's password in its content.
func echoStream(key string) string {
	frame := func(delta string) string {
		return `data: {"choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
	}
	return frame(fmt.Sprintf(`{"content":"you sent Bearer %s and %s"}`, key, echoedPassword)) +
		frame(fmt.Sprintf(`{"reasoning_content":"the key is %s"}`, key)) +
		frame(fmt.Sprintf(`{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"%s\"}"}}]}`, key)) +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
}

// TestReplayOutputIsRedacted: replaying a stream that echoes the key and the base URL's
// password, in every output format, never prints either.
func TestReplayOutputIsRedacted(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", echoedKey)
	t.Setenv("OPENAI_BASE_URL", "https://user:"+echoedPassword+"@api.example.test/v1")
	for _, args := range [][]string{nil, {"--json"}, {"--trace"}} {
		var out, errOut bytes.Buffer
		runReplay(args, strings.NewReader(echoStream(echoedKey)), &out, &errOut)
		got := out.String() + errOut.String()
		if strings.Contains(got, echoedKey) || strings.Contains(got, echoedPassword) {
			t.Errorf("replay %v printed a secret:\n%s", args, got)
		}
		if !strings.Contains(out.String(), "you sent") {
			t.Errorf("replay %v lost the text around the secret:\n%s", args, out.String())
		}
	}
}

// TestRecordingsAreRedacted: recording a server that echoes the caller's key and the
// upstream URL's password saves neither, nor prints them, while the client gets the answer.
func TestRecordingsAreRedacted(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, echoStream(key))
	}))
	defer upstream.Close()
	up := strings.Replace(upstream.URL, "http://", "http://user:"+echoedPassword+"@", 1) + "/v1"
	out := filepath.Join(t.TempDir(), "rec")
	proxy, stop, recOut := startCLI(t, fixturesCommand.Record, "--upstream", up, "--out", out, "--addr", "127.0.0.1:0")
	req, _ := http.NewRequest("POST", proxy+"/v1/chat/completions", strings.NewReader(`{"model":"echo","stream":true}`))
	req.Header.Set("Authorization", "Bearer "+echoedKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	live, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	stop()
	if !strings.Contains(string(live), echoedKey) {
		t.Fatalf("the client did not get the upstream's answer as sent: %q", live)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.scenario"))
	if len(files) != 1 {
		t.Fatalf("want one recording, got %v (recorder said %q)", files, recOut.String())
	}
	saved, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{echoedKey, echoedPassword} {
		if strings.Contains(string(saved), secret) {
			t.Errorf("the recording holds %q:\n%s", secret, saved)
		}
		if strings.Contains(recOut.String(), secret) {
			t.Errorf("the recorder printed %q: %s", secret, recOut.String())
		}
	}
	if !strings.Contains(string(saved), "the key is [redacted]") {
		t.Errorf("the recording lost the text around the secrets:\n%s", saved)
	}
}
