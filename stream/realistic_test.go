package stream

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// realisticStream is the body this package's benchmarks measure: an OpenAI-shaped stream of 5,000 chunks as gpt-4o sends them (ids,
// model, fingerprint, logprobs:null, obfuscation): a role chunk, 3,001 content tokens, two
// tool calls of 998 argument fragments each, the finish chunk and a usage chunk; then [DONE].
// It returns the SSE body and the chunks' data payloads. stream/internal/bench builds the same
// bytes for its comparison with the openai-go SDK; realisticStreamSHA256 ties the two together.
func realisticStream() (body []byte, payloads [][]byte) {
	chunk := func(delta, finish, obf string) string {
		return realisticHead + delta + `,"logprobs":null,"finish_reason":` + finish + `}],"obfuscation":"` + obf + `"}`
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

const realisticHead = `{"id":"chatcmpl-C2QD1kGWsTW5OWiqAtOSFEAOfPfQH","object":"chat.completion.chunk","created":1754693439,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":`

// realisticStreamSHA256 is the digest of realisticStream's body; stream/internal/bench/benchdata
// checks its RealisticStream against the same digest, so both benchmarks measure the same bytes.
const realisticStreamSHA256 = "917cd97576efaf60da2fff6bcb65d04d188997ac3a9d830ca30ec1c1e5670913"

func TestRealisticStreamIsTheOneTheSDKComparisonMeasures(t *testing.T) {
	body, _ := realisticStream()
	if got := fmt.Sprintf("%x", sha256.Sum256(body)); got != realisticStreamSHA256 {
		t.Fatalf("realisticStream changed (sha256 %s): change stream/internal/bench/benchdata the same way and update both digests", got)
	}
}
