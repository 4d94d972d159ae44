package stream

import (
	"bytes"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus/*.json from the current output")

// corpusDir finds ../shared/corpus (the real provider recordings, never copied into the repo)
// next to the repository root, or at /work/shared/corpus, or where PHASECHAT_CORPUS says; it
// skips the test when absent.
func corpusDir(t testing.TB) string {
	t.Helper()
	dirs := []string{filepath.Join("..", "..", "shared", "corpus"), "/work/shared/corpus"}
	if env := os.Getenv("PHASECHAT_CORPUS"); env != "" {
		dirs = []string{env}
	}
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
	}
	t.Skip("the provider corpus (../shared/corpus) is not here: corpus tests skipped")
	return ""
}

// corpusFiles lists the corpus files with suffix, as provider/name.
func corpusFiles(t testing.TB, suffix string) []string {
	dir := corpusDir(t)
	all, err := filepath.Glob(filepath.Join(dir, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range all {
		if strings.HasSuffix(p, suffix) {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s files in %s", suffix, dir)
	}
	return out
}

func readCorpus(t testing.TB, rel string) []byte {
	data, err := os.ReadFile(filepath.Join(corpusDir(t), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func goldenPath(rel string) string {
	name := strings.ReplaceAll(strings.TrimSuffix(rel, ".sse"), "/", "--") + ".json"
	return filepath.Join("testdata", "corpus", name)
}

// TestCorpusReplayJSON pins `replay --json` for every recording. Each golden was checked
// against the raw bytes by hand (see corpusFacts for the summary of each answer).
func TestCorpusReplayJSON(t *testing.T) {
	files := corpusFiles(t, ".sse")
	t.Logf("corpus: %d streams in %s", len(files), corpusDir(t))
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			var out bytes.Buffer
			if _, err := Replay(bytes.NewReader(readCorpus(t, rel)), "", ReplayJSON, &out, nil); err != nil {
				t.Fatal(err)
			}
			golden := goldenPath(rel)
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("no golden for %s: %v", rel, err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("replay --json differs from %s:\n%s", golden, out.String())
			}
		})
	}
}

// corpusFact is the answer to one recording, read from its raw bytes by the rules of
// docs/architecture.md, Tool calls and Outcomes.
type corpusFact struct {
	content, reasoning int      // lengths in bytes
	calls              []string // name(arguments length), in index order
	finish             string
	usage              []int // prompt, completion, total; nil when no usage was sent
	outcome            wire.Outcome
	err                string // prefix of the error message
}

var corpusFacts = map[string]corpusFact{
	"anthropic/claude-3.5-sonnet-text-then-2-tool-use.sse": {175, 0, []string{"get_weather(52)", "get_time(35)"}, "tool_calls", []int{506, 153, 659}, wire.OutcomeComplete, ""},
	// Anthropic Messages: message_stop completes; a tool_use block whose only argument text is
	// "" takes its start's input, {}.
	"anthropic/claude-haiku-4.5-1-tool-use-empty-input.sse": {0, 0, []string{"fixed_version(2)"}, "tool_calls", []int{563, 37, 600}, wire.OutcomeComplete, ""},
	// A text block holding "\n\n" before the thinking block: text blocks join as they came.
	"anthropic/claude-opus-4.6-text-thinking-text.sse": {36, 40, nil, "stop", []int{34, 44, 78}, wire.OutcomeComplete, ""},
	// stop_reason max_tokens: a cut-off reply, finish length.
	"anthropic/claude-sonnet-4-max-tokens.sse":                     {150, 0, nil, "length", []int{15, 50, 65}, wire.OutcomeComplete, ""},
	"anthropic/claude-sonnet-4-text-4-pings.sse":                   {16, 0, nil, "stop", []int{17, 15, 32}, wire.OutcomeComplete, ""},
	"anthropic/claude-sonnet-4-text-after-tool.sse":                {172, 0, nil, "stop", []int{476, 46, 522}, wire.OutcomeComplete, ""},
	"anthropic/claude-sonnet-4-text-then-1-tool-use.sse":           {61, 0, []string{"weather(30)"}, "tool_calls", []int{394, 67, 461}, wire.OutcomeComplete, ""},
	"anthropic/claude-sonnet-4-text-then-2-tool-use-same-name.sse": {58, 0, []string{"secret_retrieval_tool(22)", "secret_retrieval_tool(24)"}, "tool_calls", []int{416, 109, 525}, wire.OutcomeComplete, ""},
	"anthropic/claude-sonnet-4-text-then-2-tool-use.sse":           {50, 0, []string{"add(16)", "multiply(16)"}, "tool_calls", []int{502, 137, 639}, wire.OutcomeComplete, ""},
	"anthropic/claude-sonnet-4-text.sse":                           {111, 0, nil, "stop", []int{16, 38, 54}, wire.OutcomeComplete, ""},
	"anthropic/claude-sonnet-4-thinking-then-tool-use.sse":         {0, 301, []string{"weather(31)"}, "tool_calls", []int{424, 119, 543}, wire.OutcomeComplete, ""},
	"anthropic/claude-sonnet-4.5-thinking-then-text.sse":           {17, 218, nil, "stop", []int{46, 84, 130}, wire.OutcomeComplete, ""},
	"anthropic/vertex-claude-3.7-sonnet-text-then-1-tool-use.sse":  {99, 0, []string{"weather(30)"}, "tool_calls", []int{394, 76, 470}, wire.OutcomeComplete, ""},
	// OpenAI Responses: response.completed completes; function calls make the finish tool_calls.
	"openai-responses/azure-gpt-5-mini-reasoning-item-then-1-function-call.sse": {0, 0, []string{"weather(30)"}, "tool_calls", []int{63, 101, 164}, wire.OutcomeComplete, ""},
	// reasoning_text (not a summary) is reasoning too.
	"openai-responses/deepseek-v4-flash-reasoning-text-then-text.sse":        {31, 33, nil, "stop", []int{90, 15, 105}, wire.OutcomeComplete, ""},
	"openai-responses/gpt-4.1-nano-text-78-deltas.sse":                       {390, 0, nil, "stop", []int{18, 79, 97}, wire.OutcomeComplete, ""},
	"openai-responses/gpt-4o-1-function-call.sse":                            {0, 0, []string{"weather(30)"}, "tool_calls", []int{58, 17, 75}, wire.OutcomeComplete, ""},
	"openai-responses/gpt-4o-2-function-calls-same-name.sse":                 {0, 0, []string{"secret_retrieval_tool(21)", "secret_retrieval_tool(23)"}, "tool_calls", []int{36, 54, 90}, wire.OutcomeComplete, ""},
	"openai-responses/gpt-4o-2025-03-text-after-tool-no-sequence-number.sse": {31, 0, nil, "stop", []int{278, 9, 287}, wire.OutcomeComplete, ""},
	// response.incomplete (max_output_tokens): complete, cut off, finish length.
	"openai-responses/gpt-4o-incomplete-max-output-tokens.sse": {152, 0, nil, "length", []int{14, 50, 64}, wire.OutcomeComplete, ""},
	// A refusal content part is what the model said: it is the reply.
	"openai-responses/gpt-4o-refusal.sse":       {36, 0, nil, "stop", []int{54, 11, 65}, wire.OutcomeComplete, ""},
	"openai-responses/gpt-4o-text-2-deltas.sse": {5, 0, nil, "stop", []int{20, 3, 23}, wire.OutcomeComplete, ""},
	// Three summary parts, set apart by a blank line each (two separators: 4 bytes).
	"openai-responses/gpt-5-3-reasoning-summary-parts-then-text.sse": {1, 1431, nil, "stop", []int{32, 839, 871}, wire.OutcomeComplete, ""},
	// An error event, then response.failed: the first error is the one shown.
	"openai-responses/gpt-5-nano-error-insufficient-quota-then-failed.sse": {0, 0, nil, "", nil, wire.OutcomeError, "The server sent an error: You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."},
	"openai-responses/gpt-5-reasoning-item-then-2-function-calls.sse":      {0, 0, []string{"add(13)", "multiply(13)"}, "tool_calls", []int{109, 223, 332}, wire.OutcomeComplete, ""},
	"openai-responses/gpt-5-reasoning-summary-then-1-function-call.sse":    {0, 424, []string{"weather(30)"}, "tool_calls", []int{63, 121, 184}, wire.OutcomeComplete, ""},
	"openai-responses/o4-mini-reasoning-summary-then-text.sse":             {312, 480, nil, "stop", []int{89, 196, 285}, wire.OutcomeComplete, ""},
	// content:"" beside reasoning, then "  "; finish twice, usage only in the second copy.
	"avian/kimi-reasoning-text-tool-duplicate-finish.sse": {2, 332, []string{"weather(30)"}, "tool_calls", []int{76, 96, 172}, wire.OutcomeComplete, ""},
	// choices:[] prompt-filter first chunk is ignored; no usage.
	"azure/gpt-35-turbo-prompt-filter-first-chunk.sse": {120, 0, nil, "stop", nil, wire.OutcomeComplete, ""},
	"azure/gpt-5-mini-1-tool-prompt-filter-usage.sse":  {0, 0, []string{"weather(30)"}, "tool_calls", []int{145, 154, 299}, wire.OutcomeComplete, ""},
	// Both calls whole in one delta; finish_reason but no [DONE]: complete.
	"cerebras/qwen-3-coder-480b-2-whole-tools-one-delta-no-done.sse": {0, 0, []string{"add(16)", "multiply(16)"}, "tool_calls", []int{408, 59, 467}, wire.OutcomeComplete, ""},
	"deepseek/reasoner-reasoning-content-usage.sse":                  {43, 882, nil, "stop", []int{6, 212, 218}, wire.OutcomeComplete, ""},
	// Ends after a content delta with no finish_reason, no usage, no [DONE]: truncated.
	"evroc/kimi-k2.6-eof-without-finish-reason.sse": {748, 497, nil, "", nil, wire.OutcomeTruncated, wire.MsgTruncated},
	// event: error after reasoning, then EOF.
	"groq/gpt-oss-120b-reasoning-then-event-error-no-done.sse": {0, 412, nil, "", nil, wire.OutcomeError, "The server sent an error: Tool call validation failed: tool call validation failed: parameters for tool get_something_by_name did not match schema"},
	"groq/gpt-oss-120b-reasoning-then-whole-tool-call.sse":     {0, 92, []string{"get_something_by_name(18)"}, "tool_calls", []int{304, 49, 353}, wire.OutcomeComplete, ""},
	// Usage in the finish chunk and again in a trailing chunk: the same, never summed.
	"groq/kimi-k2-text-then-2-whole-tools.sse":                          {77, 0, []string{"add(13)", "multiply(13)"}, "tool_calls", []int{201, 58, 259}, wire.OutcomeComplete, ""},
	"huggingface/kimi-k2-1-whole-tool-content-null.sse":                 {0, 0, []string{"weather(29)"}, "tool_calls", []int{93, 21, 114}, wire.OutcomeComplete, ""},
	"llamacpp/gpt-oss-20b-reasoning-then-tool-name-with-first-args.sse": {0, 71, []string{"weather(30)"}, "tool_calls", []int{139, 41, 180}, wire.OutcomeComplete, ""},
	"llamacpp/gpt-oss-20b-text-after-tool.sse":                          {55, 0, nil, "stop", []int{196, 18, 214}, wire.OutcomeComplete, ""},
	// delta.content as an array: thinking blocks are reasoning, text is content.
	"mistral/magistral-content-array-thinking.sse": {607, 421, nil, "stop", []int{10, 232, 242}, wire.OutcomeComplete, ""},
	// No index, no id (call_0), finish in the same chunk; the file ends without a newline.
	"mistral/mistral-small-2024-04-tool-no-index-no-id-finish-in-same-chunk.sse": {0, 0, []string{"WeatherPlugin-GetWeather(40)"}, "tool_calls", []int{118, 31, 149}, wire.OutcomeComplete, ""},
	"openai/gpt-4o-1-tool-long-args-usage.sse":                                   {0, 0, []string{"final_result(229)"}, "tool_calls", []int{448, 62, 510}, wire.OutcomeComplete, ""},
	"openai/gpt-4o-1-tool-role-in-first-tool-chunk.sse":                          {0, 0, []string{"get_weather(22)"}, "tool_calls", []int{423, 15, 438}, wire.OutcomeComplete, ""},
	"openai/gpt-4o-2-parallel-tools-empty-args-usage.sse":                        {0, 0, []string{"get_country(2)", "get_product_name(2)"}, "tool_calls", []int{364, 40, 404}, wire.OutcomeComplete, ""},
	"openai/gpt-4o-2-parallel-tools-no-usage.sse":                                {0, 0, []string{"get_current_weather(29)", "get_current_weather(22)"}, "tool_calls", nil, wire.OutcomeComplete, ""},
	"openai/gpt-4o-mini-1-tool-usage.sse":                                        {0, 0, []string{"get_capital(16)"}, "tool_calls", []int{53, 15, 68}, wire.OutcomeComplete, ""},
	"openai/gpt-4o-mini-2-parallel-tools-usage.sse":                              {0, 0, []string{"add(16)", "multiply(16)"}, "tool_calls", []int{106, 50, 156}, wire.OutcomeComplete, ""},
	"openai/gpt-4o-mini-text-after-tool-result-usage.sse":                        {32, 0, nil, "stop", []int{78, 9, 87}, wire.OutcomeComplete, ""},
	"openai/gpt-5-1-tool-usage.sse":                                              {0, 0, []string{"weather(30)"}, "tool_calls", []int{145, 89, 234}, wire.OutcomeComplete, ""},
	"openai/gpt-5-text-after-tool-usage.sse":                                     {113, 0, nil, "stop", []int{176, 228, 404}, wire.OutcomeComplete, ""},
	// A moderation chunk with usage:null after the usage chunk does not erase the usage.
	"openai/gpt-5-text-usage-then-moderation-chunk.sse": {6, 0, nil, "stop", []int{13, 11, 24}, wire.OutcomeComplete, ""},
	"openrouter/anthropic-2-tools-role-every-chunk.sse": {0, 0, []string{"add(16)", "multiply(16)"}, "tool_calls", []int{685, 120, 805}, wire.OutcomeComplete, ""},
	"openrouter/gemini-2-tools-whole-args.sse":          {0, 0, []string{"add(13)", "multiply(13)"}, "tool_calls", []int{157, 32, 189}, wire.OutcomeComplete, ""},
	"openrouter/kimi-reasoning-then-2-tools.sse":        {0, 240, []string{"add(16)", "multiply(16)"}, "tool_calls", []int{125, 97, 222}, wire.OutcomeComplete, ""},
	// The only text arrives with finish_reason; usage in a chunk after it.
	"openrouter/llama-3.2-3b-venice-content-with-finish-then-usage.sse": {13, 0, nil, "stop", []int{586, 3, 589}, wire.OutcomeComplete, ""},
	// finish "length" twice, then a top-level error object (with usage), then [DONE]: error.
	"openrouter/minimax-m2-comments-error-in-stream-length.sse":            {0, 42, nil, "length", []int{43, 10, 53}, wire.OutcomeError, "The server sent an error: Token limit reached"},
	"vercel-gateway/claude-sonnet-4-text-then-2-tools-usage-in-finish.sse": {50, 0, []string{"add(16)", "multiply(16)"}, "tool_calls", []int{502, 137, 639}, wire.OutcomeComplete, ""},
	"vercel-gateway/gemini-2.5-flash-2-tools.sse":                          {0, 0, []string{"add(13)", "multiply(13)"}, "tool_calls", []int{57, 10, 67}, wire.OutcomeComplete, ""},
	"vllm/opt-125m-text-length.sse":                                        {39, 0, nil, "length", nil, wire.OutcomeComplete, ""},
	// 7 calls, explicit nulls, message and delta per choice, no [DONE] after finish: complete.
	"writer/palmyra-x4-7-tools-explicit-nulls-no-done.sse":    {0, 0, []string{"get_weather(24)", "get_weather(22)", "get_weather(20)", "get_weather(24)", "get_weather(22)", "get_weather(22)", "get_weather(22)"}, "tool_calls", []int{212, 153, 365}, wire.OutcomeComplete, ""},
	"xai/grok-3-mini-reasoning-content-then-tool.sse":         {0, 1488, []string{"weather(30)"}, "tool_calls", []int{288, 27, 628}, wire.OutcomeComplete, ""},
	"xai/grok-4-fast-2-whole-tools.sse":                       {0, 0, []string{"add(13)", "multiply(13)"}, "tool_calls", []int{432, 68, 636}, wire.OutcomeComplete, ""},
	"zai/glm-4.7-flash-reasoning-text-then-2-whole-tools.sse": {55, 224, []string{"add(13)", "multiply(13)"}, "tool_calls", []int{275, 112, 387}, wire.OutcomeComplete, ""},
	"zai/glm-4.7-reasoning-text.sse":                          {1, 2173, nil, "stop", []int{13, 564, 577}, wire.OutcomeComplete, ""},
}

func checkFact(t *testing.T, rel string, res wire.Result) {
	t.Helper()
	want, ok := corpusFacts[rel]
	if !ok {
		t.Fatalf("no fact recorded for %s: read it and add one", rel)
	}
	checkAgainst(t, want, res)
}

func checkAgainst(t *testing.T, want corpusFact, res wire.Result) {
	t.Helper()
	got := corpusFact{content: len(res.Message.Text()), reasoning: len(res.Message.Reasoning()),
		finish: res.FinishReason, outcome: res.Outcome}
	for _, tc := range res.Message.Calls() {
		got.calls = append(got.calls, tc.Name+"("+strconv.Itoa(len(tc.Arguments))+")")
	}
	if u := res.Usage; u != nil {
		got.usage = []int{u.PromptTokens, u.CompletionTokens, u.TotalTokens}
	}
	if res.Err != nil {
		got.err = res.Err.Message
	}
	if !strings.HasPrefix(got.err, want.err) || (want.err == "") != (got.err == "") {
		t.Errorf("error = %q, want it to start with %q", got.err, want.err)
	}
	got.err = want.err
	if !factEqual(got, want) {
		t.Errorf("answer = %+v\nwant     %+v", got, want)
	}
}

func factEqual(a, b corpusFact) bool {
	return a.content == b.content && a.reasoning == b.reasoning && a.finish == b.finish &&
		a.outcome == b.outcome && a.err == b.err && strings.Join(a.calls, ",") == strings.Join(b.calls, ",") &&
		len(a.usage) == len(b.usage) && (a.usage == nil || a.usage[0] == b.usage[0] && a.usage[1] == b.usage[1] && a.usage[2] == b.usage[2])
}

func TestCorpusFacts(t *testing.T) {
	files := corpusFiles(t, ".sse")
	if len(files) != len(corpusFacts) {
		t.Errorf("%d recordings, %d facts", len(files), len(corpusFacts))
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			res, err := Replay(bytes.NewReader(readCorpus(t, rel)), "", ReplayJSON, new(bytes.Buffer), nil)
			if err != nil {
				t.Fatal(err)
			}
			checkFact(t, rel, res)
		})
	}
}

// corpusAnswers is the answer of each recorded stream:false body (a .json with no HTTP status
// in its name), read from its bytes.
var corpusAnswers = map[string]corpusFact{
	// stop_reason max_tokens: finish length, complete.
	"anthropic/claude-sonnet-4-max-tokens.json": {150, 0, nil, "length", []int{15, 50, 65}, wire.OutcomeComplete, ""},
	"anthropic/claude-sonnet-4-text.json":       {88, 0, nil, "stop", []int{16, 34, 50}, wire.OutcomeComplete, ""},
	// status incomplete (max_output_tokens), the message item incomplete too.
	"openai-responses/gpt-4o-incomplete-max-output-tokens.json": {152, 0, nil, "length", []int{14, 50, 64}, wire.OutcomeComplete, ""},
	"openai-responses/gpt-4o-text.json":                         {5, 0, nil, "stop", []int{20, 3, 23}, wire.OutcomeComplete, ""},
}

// TestCorpusAnswers serves each recorded stream:false body with status 200 to a streaming
// request and checks the answer it decodes to; that the Updates it gives fold into the same
// reply (streamed equals buffered); and that replay reads the file the same way.
func TestCorpusAnswers(t *testing.T) {
	var files []string
	for _, rel := range corpusFiles(t, ".json") {
		if !strings.Contains(rel, ".http-") {
			files = append(files, rel)
		}
	}
	if len(files) != len(corpusAnswers) {
		t.Errorf("%d answer bodies, %d facts", len(files), len(corpusAnswers))
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			body := readCorpus(t, rel)
			want, ok := corpusAnswers[rel]
			if !ok {
				t.Fatalf("no fact recorded for %s: read it and add one", rel)
			}
			c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write(body)
			})
			res, ups := streamResult(t, c)
			checkAgainst(t, want, res)
			st, calls := fold(ups)
			if st.Text.String() != res.Message.Text() || st.Reasoning.String() != res.Message.Reasoning() {
				t.Errorf("folded text %q, reasoning %q; result %+v", st.Text.String(), st.Reasoning.String(), res.Message)
			}
			if calls.Len() != len(res.Message.Calls()) {
				t.Errorf("%d calls folded, %d in the result", calls.Len(), len(res.Message.Calls()))
			}
			replayed, err := Replay(bytes.NewReader(body), "", ReplayJSON, new(bytes.Buffer), nil)
			if err != nil || !reflect.DeepEqual(replayed, res) {
				t.Errorf("replay: %+v, %v\nstream: %+v", replayed, err, res)
			}
		})
	}
}
