package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// chunkCases are payloads whose decoding encoding/json pins in ways a scanner could miss.
var chunkCases = []string{
	`{"choices":[{"index":0,"delta":{"content":"hi"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"caf\u00e9 \ud83d\ude00 \ud83d \ude00 \\ \" \/ \b\f\n\r\t"}}]}`,
	"{\"choices\":[{\"delta\":{\"content\":\"bad \xff utf-8 \xed\xa0\x80\"}}]}",
	`{"Choices":[{"INDEX":0,"Delta":{"Content":"folded","Reaſoning":"long s","TOOL_CALLS":[{"ID":"a"}]}}]}`,
	`{"\u0063hoices":[{"delta":{"content":"escaped key"}}]}`,
	`{"choices":[{"index":"0","delta":{"content":1}},{"index":0,"delta":{"content":"second"}}]}`,
	`{"choices":[5,{"index":0}]}`,
	`{"choices":[null,{"index":1.0},{"index":-0},{"index":1e2},{"index":99999999999999999999}]}`,
	`{"choices":[{"index":1,"delta":{"content":"a"}}],"choices":[{"delta":{"reasoning":"b"}}]}`,
	`{"choices":[{"index":1},{"index":2}],"choices":[{"index":3}],"choices":[{},{}]}`,
	`{"choices":[],"type":"message_start"}`,
	`{"choices":null,"type":"message_start"}`,
	`{"type":"message_start","type":null,"type":5}`,
	`{"choices":"x","usage":"y"}`,
	`{"usage":{"prompt_tokens":1.5,"completion_tokens":"2","total_tokens":3,"x":{"y":[1,2]}}}`,
	`{"usage":{"prompt_tokens":9223372036854775807,"completion_tokens":9223372036854775808,"total_tokens":-0}}`,
	`{"usage":{"prompt_tokens":1},"usage":null}`,
	`{"usage":[1],"error":null}`,
	`{"error":{"message":"boom","code":429}}`,
	`{"error":"plain"}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":{"a":[1, 2]}}}]}}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":-1,"function":{"arguments":null}},{"function":{"arguments":"{\"x\":"}},{"function":5},{"function":null}, 7]}}]}`,
	`{"choices":[{"delta":{"tool_calls":null}}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":0,"extra_content":{"google":{"thought_signature":"x"}}},{"extra_content":null},{"Extra_Content":5}]}}]}`,
	`{"choices":[{"delta":{"tool_calls":[]}}]}`,
	`{"choices":[{"delta":{"tool_calls":{}}}]}`,
	`{"choices":[{"delta":{"function_call":{"name":"get","arguments":"{\"a\""}}}]}`,
	`{"choices":[{"delta":{"function_call":null}}]}`,
	`{"choices":[{"delta":{"function_call":"auto"}}]}`,
	`{"choices":[{"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"hm"}]},{"type":"text","text":"ok"}]}}]}`,
	`{"choices":[{"delta":{"content":[{"type":"thinking","thinking":"plain"},null,{"type":null},{"type":"text","text":5}]}}]}`,
	`{"choices":[{"delta":{"content":[{"type":"text","text":"a"},5]}}]}`,
	`{"choices":[{"delta":{"content":[{"type":5,"text":"a"}]}}]}`,
	`{"choices":[{"delta":{"content":"a","content":[{"type":"text","text":"b"}]}}]}`,
	`{"choices":[{"delta":{"content":[{"type":"text","text":"a"}],"content":[{"type":"text","text":"b"}]}}]}`,
	`{"choices":[{"delta":{"content":[]}}]}`,
	`{"choices":[{"delta":{"content":null,"reasoning_content":null,"reasoning":"r"}}]}`,
	`{"choices":[{"delta":{"content":"a"},"message":{"content":"not read"},"finish_reason":"stop","finish_reason":null}]}`,
	`  {"choices":[]}  `,
	`{"choices":[]} x`,
	`{"choices":[],}`,
	`{"a":tru}`,
	`{"a":01}`,
	`{"a":1.}`,
	`{"a":-}`,
	`{"a":"\x"}`,
	`{"a":"\u12"}`,
	"{\"a\":\"tab\there\"}",
	`{"a" 1}`,
	`{"a":1 "b":2}`,
	`{"a":[1 2]}`,
	`{"a":[,]}`,
	`{`,
	`{"a":"unterminated`,
	`[{"choices":[]}]`,
	`"just a string"`,
	``,
}

// referenceChunk decodes payload as the decoder did before it scanned chunks itself: with
// encoding/json, a type mismatch tolerated. The message of a choice, which a stream never
// reads, is dropped.
func referenceChunk(payload string) (wireChunk, bool) {
	var ch wireChunk
	err := json.Unmarshal([]byte(payload), &ch)
	if err != nil && !errors.As(err, new(*json.UnmarshalTypeError)) {
		return ch, false
	}
	for i := range ch.Choices {
		ch.Choices[i].Message = nil
	}
	return ch, true
}

func checkChunk(t *testing.T, payload string) {
	t.Helper()
	want, valid := referenceChunk(payload)
	var got wireChunk
	ok := decodeChunk(payload, &got, nil)
	if ok != valid {
		t.Fatalf("%q: scanner says valid %v, encoding/json %v", payload, ok, valid)
	}
	if ok && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nscanner       %+v\nencoding/json %+v", payload, got, want)
	}
}

func TestDecodeChunkAgreesWithEncodingJSON(t *testing.T) {
	for _, p := range chunkCases {
		checkChunk(t, p)
	}
	for _, p := range seedPayloads(t) {
		checkChunk(t, p)
	}
}

func TestDecodeChunkNestingLimit(t *testing.T) {
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		p := `{"x":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
		checkChunk(t, p)
	}
}

// TestDecodeChunkReusesNothingStale decodes different payloads with the same pools, as the
// decoder does, and checks each against a fresh decode.
func TestDecodeChunkReusesNothingStale(t *testing.T) {
	var pools chunkPools
	for _, p := range append(chunkCases, chunkCases...) {
		want, valid := referenceChunk(p)
		var got wireChunk
		if decodeChunk(p, &got, &pools) && valid && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q with reused pools:\n%+v\nwant %+v", p, got, want)
		}
	}
}

// seedPayloads are the benchmark streams' payloads and, when the corpus is present, every
// data line of its recordings.
func seedPayloads(t testing.TB) []string {
	_, payloads := realisticStream()
	var out []string
	for i, p := range payloads {
		if i%97 == 0 || i > len(payloads)-3 {
			out = append(out, string(p))
		}
	}
	for _, dir := range []string{filepath.Join("..", "..", "shared", "corpus"), "/work/shared/corpus"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*", "*.sse"))
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			for _, line := range bytes.Split(data, []byte("\n")) {
				if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
					out = append(out, strings.TrimSpace(string(d)))
				}
			}
		}
		if len(paths) > 0 {
			break
		}
	}
	return out
}

// FuzzDecodeChunk checks the chunk scanner against encoding/json on any payload.
func FuzzDecodeChunk(f *testing.F) {
	for _, p := range chunkCases {
		f.Add(p)
	}
	for _, p := range seedPayloads(f) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, payload string) { checkChunk(t, payload) })
}

// FuzzDecodeChunkAfter checks the chunk scanner against encoding/json on a payload decoded
// after another with the same pools, as a stream's decoder reads them: what it kept of the
// first (the members it skipped) never changes how it reads the second.
func FuzzDecodeChunkAfter(f *testing.F) {
	head := `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1754693439,"model":"m","meta":{"a":[1]},`
	f.Add(head+`"choices":[{"index":0,"delta":{"content":"a"}}]}`, head+`"choices":[{"index":0,"delta":{"content":"b"}}]}`)
	f.Add(head+`"choices":[]}`, head+`"x":1}`)
	f.Add(`{"id":"a","created":17,"choices":[]}`, `{"id":"a","created":175,"choices":[]}`)
	f.Add(`{"id":"a","t":true,"choices":[]}`, `{"id":"a","t":truex,"choices":[]}`)
	f.Add(`{"id":"a","Choices":[],"x":"y"}`, `{"id":"a","Choices":[],"x":"y"}`)
	f.Add(` {"id":"a", "m":"b" ,"usage":null}`, ` {"id":"a", "m":"b" }`)
	f.Add(`{"id":"a","m":"b","choices":[]}`, `{"id":"a","m":"b"`)
	f.Fuzz(func(t *testing.T, first, payload string) {
		var pools chunkPools
		var ch wireChunk
		decodeChunk(first, &ch, &pools)
		want, valid := referenceChunk(payload)
		var got wireChunk
		ok := decodeChunk(payload, &got, &pools)
		if ok != valid {
			t.Fatalf("%q after %q: scanner says valid %v, encoding/json %v", payload, first, ok, valid)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q after %q:\nscanner       %+v\nencoding/json %+v", payload, first, got, want)
		}
	})
}
