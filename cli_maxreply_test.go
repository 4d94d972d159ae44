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
