package stream

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// realisticFile holds realisticStream's body, gzipped, for the openai-go comparison in
// stream/internal/bench (a module of its own), so both measure the same bytes.
const realisticFile = "testdata/realistic.sse.gz"

// realisticStream is an OpenAI-shaped stream of 5,000 chunks as gpt-4o sends them (ids,
// model, fingerprint, logprobs:null, obfuscation): a role chunk, 3,001 content tokens, two
// tool calls of 998 argument fragments each, the finish chunk and a usage chunk; then [DONE].
// It returns the SSE body and the chunks' data payloads.
func realisticStream() (body []byte, payloads [][]byte) {
	const head = `{"id":"chatcmpl-C2QD1kGWsTW5OWiqAtOSFEAOfPfQH","object":"chat.completion.chunk","created":1754693439,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":`
	chunk := func(delta, finish, obf string) string {
		return head + delta + `,"logprobs":null,"finish_reason":` + finish + `}],"obfuscation":"` + obf + `"}`
	}
	words := strings.Fields("The quick brown fox jumps over the lazy dog while a \"streaming\" reply keeps arriving, token by token; tools run meanwhile. ")
	add := func(p string) { payloads = append(payloads, []byte(p)) }
	add(chunk(`{"role":"assistant","content":"","refusal":null}`, "null", "Xy"))
	for i := range 3001 {
		tok, _ := json.Marshal(" " + words[i%len(words)])
		add(chunk(`{"content":`+string(tok)+`}`, "null", "abc"[:1+i%3]))
	}
	for call := range 2 {
		add(chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"call_%d5XZW4hKQKCNPzSEq9fUrLAk","type":"function","function":{"name":"read_file","arguments":""}}]}`, call, call), "null", "Q"))
		frags := []string{`{"`, `path`, `":"`, `src/`, `main`, `.go`, `","`, `lines`, `":[`}
		for i := range 997 {
			var f string
			switch {
			case i < len(frags):
				f = frags[i]
			case i == 996:
				f = `0]}`
			default:
				f = fmt.Sprintf("%d,", i)
			}
			q, _ := json.Marshal(f)
			add(chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, call, q), "null", "tT"))
		}
	}
	add(chunk(`{}`, `"tool_calls"`, "fin"))
	add(`{"id":"chatcmpl-C2QD1kGWsTW5OWiqAtOSFEAOfPfQH","object":"chat.completion.chunk","created":1754693439,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[],"usage":{"prompt_tokens":364,"completion_tokens":4998,"total_tokens":5362,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},"obfuscation":"zz"}`)
	var b bytes.Buffer
	for _, p := range payloads {
		b.WriteString("data: ")
		b.Write(p)
		b.WriteString("\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes(), payloads
}

// TestRealisticFileIsTheStream keeps realisticFile equal to realisticStream's body; -update
// rewrites it.
func TestRealisticFileIsTheStream(t *testing.T) {
	body, _ := realisticStream()
	if *update {
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(body)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(realisticFile, z.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(realisticFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, body) {
		t.Fatalf("%s differs from realisticStream's body (%d bytes, want %d): run go test ./stream -run TestRealisticFileIsTheStream -update", realisticFile, len(got), len(body))
	}
}
