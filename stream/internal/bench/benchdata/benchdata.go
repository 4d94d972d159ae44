// Package benchdata builds the streams the comparisons in stream/internal/bench measure. Its
// RealisticStream is byte for byte the body package stream's own benchmarks (P1 in
// docs/architecture.md) build in a test file; a digest in both checks that they stay the same.
package benchdata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// RealisticStream is an OpenAI-shaped stream of 5,000 chunks as gpt-4o sends them (ids,
// model, fingerprint, logprobs:null, obfuscation): a role chunk, 3,001 content tokens, two
// tool calls of 998 argument fragments each, the finish chunk and a usage chunk; then [DONE].
// It returns the SSE body and the chunks' data payloads.
func RealisticStream() (body []byte, payloads [][]byte) {
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

const head = `{"id":"chatcmpl-C2QD1kGWsTW5OWiqAtOSFEAOfPfQH","object":"chat.completion.chunk","created":1754693439,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":`

func sseChunk(delta, finish string) string {
	return head + delta + `,"logprobs":null,"finish_reason":` + finish + `}],"obfuscation":"Q7"}`
}

func sseBody(payloads []string) []byte {
	var b bytes.Buffer
	for _, p := range payloads {
		b.WriteString("data: ")
		b.WriteString(p)
		b.WriteString("\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// TextStream is an OpenAI-shaped stream of n content tokens (each a word of a realistic
// sentence, some with escapes), a finish chunk and a usage chunk, then [DONE].
func TextStream(n int) []byte {
	words := strings.Fields("The quick brown fox jumps over the lazy dog while a \"streaming\" reply keeps arriving, token by token; café naïve 😀 tools run meanwhile.\n ")
	payloads := []string{sseChunk(`{"role":"assistant","content":"","refusal":null}`, "null")}
	for i := range n {
		tok, _ := json.Marshal(" " + words[i%len(words)])
		payloads = append(payloads, sseChunk(`{"content":`+string(tok)+`}`, "null"))
	}
	payloads = append(payloads, sseChunk(`{}`, `"stop"`), usageChunk)
	return sseBody(payloads)
}

const usageChunk = `{"id":"chatcmpl-C2QD1kGWsTW5OWiqAtOSFEAOfPfQH","object":"chat.completion.chunk","created":1754693439,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[],"usage":{"prompt_tokens":364,"completion_tokens":4998,"total_tokens":5362,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},"obfuscation":"zz"}`

// Arguments is size bytes of realistic tool-call argument JSON: a write_file call whose
// content has quotes, backslashes and \u escapes.
func Arguments(size int) string {
	var text strings.Builder
	text.WriteString(`{"path":"notes.md","content":"`)
	for text.Len() < size {
		text.WriteString(`line of text with \"quotes\", \\ and \u00e9 characters\n`)
	}
	s := text.String()[:size-2] + `"}`
	if !json.Valid([]byte(s)) { // the cut may split an escape: end on a plain byte
		s = s[:size-8] + `xxxx"}`
	}
	return s
}

// ArgumentStream is an OpenAI-shaped stream of one tool call whose size bytes of arguments
// (Arguments) arrive in fragments of n bytes, then the finish and usage chunks and [DONE].
func ArgumentStream(size, n int) []byte {
	args := Arguments(size)
	payloads := []string{sseChunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_5XZW4hKQKCNPzSEq9fUrLAk","type":"function","function":{"name":"write_file","arguments":""}}],"refusal":null}`, "null")}
	for i := 0; i < len(args); i += n {
		q, _ := json.Marshal(args[i:min(len(args), i+n)])
		payloads = append(payloads, sseChunk(`{"tool_calls":[{"index":0,"function":{"arguments":`+string(q)+`}}]}`, "null"))
	}
	payloads = append(payloads, sseChunk(`{}`, `"tool_calls"`), usageChunk)
	return sseBody(payloads)
}
