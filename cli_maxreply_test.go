package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigReplyServer streams a reply of about 2 MiB of content, in 64 KiB deltas.
func bigReplyServer(t *testing.T) string {
	t.Helper()
	chunk := strings.Repeat("x", 64<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for range 32 {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"finish_reason\":null}]}\n\n", chunk)
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// TestMaxReplyReachesEveryClient: a 1 MiB cap, given by --max-reply or by the config file's
// max_reply, stops a 2 MiB reply from a configured provider as well as from --base-url; with
// neither, the 32 MiB default lets it through.
func TestMaxReplyReachesEveryClient(t *testing.T) {
	base := bigReplyServer(t)
	withConfig := func(t *testing.T, top string) string {
		data := t.TempDir()
		dir := filepath.Join(data, "config", "phasechat")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		cfg := top + "[provider.only]\nbase_url = \"" + base + "\"\nmodels = [\"big\"]\n"
		if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, tc := range []struct {
		name    string
		data    func(t *testing.T) string
		args    []string
		stopped bool
	}{
		{"provider, flag", func(t *testing.T) string { return withConfig(t, "") }, []string{"--max-reply", "1"}, true},
		{"provider, config file", func(t *testing.T) string { return withConfig(t, "max_reply = 1\n") }, nil, true},
		{"provider, flag beats file", func(t *testing.T) string { return withConfig(t, "max_reply = 1\n") }, []string{"--max-reply", "8"}, false},
		{"provider, default", func(t *testing.T) string { return withConfig(t, "") }, nil, false},
		{"base url, flag", func(t *testing.T) string { return t.TempDir() }, []string{"--base-url", base, "--model", "big", "--max-reply", "1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-p", "hi", "--no-save"}, tc.args...)
			r := runOneShotChild(t, tc.data(t), "", args...)
			said := strings.Contains(r.stderr, "passed 1 MiB")
			if tc.stopped && (r.code == 0 || !said) {
				t.Fatalf("the reply was not stopped at 1 MiB: exit %d, stderr %q", r.code, r.stderr)
			}
			if !tc.stopped && (r.code != 0 || len(r.stdout) < 2<<20) {
				t.Fatalf("the reply was stopped: exit %d, %d bytes out, stderr %q", r.code, len(r.stdout), r.stderr)
			}
			if tc.stopped && len(r.stdout) < 1<<20 {
				t.Fatalf("what arrived before the cap was not kept: %d bytes out", len(r.stdout))
			}
		})
	}
}

// keptOnlyServer streams a reply whose 2 MiB are kept but never shown — Anthropic's thinking
// signature in 64 KiB deltas, a redacted thinking block, or a Responses reasoning item's
// encrypted content — after one word of text.
func keptOnlyServer(t *testing.T, kind string) string {
	t.Helper()
	chunk := strings.Repeat("A", 64<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		event := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
		switch kind {
		case "signature", "redacted":
			event("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}`)
			if kind == "signature" {
				event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`)
				for range 32 {
					event("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"`+chunk+`"}}`)
				}
			} else {
				event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"`+strings.Repeat(chunk, 32)+`"}}`)
			}
			event("content_block_stop", `{"type":"content_block_stop","index":0}`)
			event("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`)
			event("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi"}}`)
			event("content_block_stop", `{"type":"content_block_stop","index":1}`)
			event("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`)
			event("message_stop", `{"type":"message_stop"}`)
		case "responses":
			event("response.created", `{"type":"response.created","response":{"id":"resp_1","status":"in_progress","output":[]}}`)
			event("response.output_item.done", `{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"`+strings.Repeat(chunk, 32)+`"}}`)
			event("response.output_text.delta", `{"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":"Hi"}`)
			event("response.completed", `{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[]}}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// TestMaxReplyCountsWhatIsKeptButNotShown: what a reply keeps for the next request without
// showing it counts toward --max-reply in the real program as the text does, so a server
// cannot grow memory past the cap through signatures or reasoning items.
func TestMaxReplyCountsWhatIsKeptButNotShown(t *testing.T) {
	for _, tc := range []struct{ kind, wire string }{
		{"signature", "anthropic"},
		{"redacted", "anthropic"},
		{"responses", "responses"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			base := keptOnlyServer(t, tc.kind)
			r := runOneShotChild(t, t.TempDir(), "", "-p", "hi", "--no-save", "--base-url", base, "--wire", tc.wire, "--model", "m", "--max-reply", "1")
			if r.code == 0 || !strings.Contains(r.stderr, "passed 1 MiB") {
				t.Fatalf("2 MiB kept past a 1 MiB cap: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}
}
