// Package ssetest builds the SSE bodies and payloads that the stream and wire tests share:
// Chat Completions chunks, Anthropic Messages and Responses events, the realistic 5,000-event
// streams the benchmarks measure, and Frames, the reference framing the real framer is held to.
// It imports nothing of ours, so tests inside package wire may use it too. Its functions are
// variables, as in internal/testwait: no program reaches them, only tests.
package ssetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Delta is a chunk whose choice 0 carries the given delta JSON.
var Delta = func(d string) string { return `{"choices":[{"index":0,"delta":` + d + `}]}` }

// Tool is a delta with one tool-call fragment; index < 0 leaves the index out, "" leaves
// id/name out, and args is raw JSON (a string literal, null, or a value).
var Tool = func(index int, id, name, args string) string {
	var f []string
	if index >= 0 {
		f = append(f, fmt.Sprintf(`"index":%d`, index))
	}
	if id != "" {
		f = append(f, fmt.Sprintf(`"id":%q`, id))
	}
	fn := []string{}
	if name != "" {
		fn = append(fn, fmt.Sprintf(`"name":%q`, name))
	}
	if args != "" {
		fn = append(fn, `"arguments":`+args)
	}
	f = append(f, `"function":{`+strings.Join(fn, ",")+`}`)
	return Delta(`{"tool_calls":[{` + strings.Join(f, ",") + `}]}`)
}

var FinishChunk = func(reason string) string {
	return `{"choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}`
}

// SSEBody builds an SSE body from event/data pairs.
var SSEBody = func(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] != "" {
			b.WriteString("event: " + pairs[i] + "\n")
		}
		b.WriteString("data: " + pairs[i+1] + "\n\n")
	}
	return b.String()
}

const (
	AStart     = `{"type":"message_start","message":{"usage":{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":1}}}`
	AStop      = `{"type":"message_stop"}`
	ADeltaTool = `{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":20}}`
)

var ABlock = func(i int, block string) string {
	return fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, i, block)
}

var ADelta = func(i int, delta string) string {
	return fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":%s}`, i, delta)
}

var ABlockStop = func(i int) string { return fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i) }

var AArgs = func(i int, s string) string {
	b, _ := json.Marshal(s)
	return ADelta(i, `{"type":"input_json_delta","partial_json":`+string(b)+`}`)
}

var RCompleted = func(status string) string {
	return fmt.Sprintf(`{"type":"response.%s","response":{"status":%q,"usage":{"input_tokens":7,"output_tokens":3,"total_tokens":10}}}`, status, status)
}

var RCall = func(oi int, id, callID, name string) string {
	return fmt.Sprintf(`{"type":"response.output_item.added","output_index":%d,"item":{"type":"function_call","id":%q,"call_id":%q,"name":%q,"arguments":""}}`, oi, id, callID, name)
}

var RArgs = func(oi int, id, delta string) string {
	b, _ := json.Marshal(delta)
	return fmt.Sprintf(`{"type":"response.function_call_arguments.delta","output_index":%d,"item_id":%q,"delta":%s}`, oi, id, b)
}

var RArgsDone = func(oi int, id, args string) string {
	b, _ := json.Marshal(args)
	return fmt.Sprintf(`{"type":"response.function_call_arguments.done","output_index":%d,"item_id":%q,"arguments":%s}`, oi, id, b)
}

var RText = func(item, delta string) string {
	b, _ := json.Marshal(delta)
	return fmt.Sprintf(`{"type":"response.output_text.delta","item_id":%q,"output_index":0,"content_index":0,"delta":%s}`, item, b)
}

// RealisticStream is the body the pipeline benchmarks measure: an OpenAI-shaped stream of 5,000 chunks as gpt-4o sends them (ids,
// model, fingerprint, logprobs:null, obfuscation): a role chunk, 3,001 content tokens, two
// tool calls of 998 argument fragments each, the finish chunk and a usage chunk; then [DONE].
// It returns the SSE body and the chunks' data payloads. stream/internal/bench builds the same
// bytes for its comparison with the openai-go SDK; RealisticStreamSHA256 ties the two together.
var RealisticStream = func() (body []byte, payloads [][]byte) {
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

// RealisticStreamSHA256 is the digest of RealisticStream's body; stream/internal/bench/benchdata
// checks its RealisticStream against the same digest, so both benchmarks measure the same bytes.
const RealisticStreamSHA256 = "917cd97576efaf60da2fff6bcb65d04d188997ac3a9d830ca30ec1c1e5670913"

// WireStream is a realistic stream of 5,000 events in format (anthropic or responses), as the providers send
// them: text deltas (about 3,000), then two read_file calls of about 1,000 argument fragments
// each, then the format's end. It returns the SSE body and the events' data payloads.
var WireStream = func(format string) (body []byte, payloads [][]byte) {
	words := strings.Fields("The quick brown fox jumps over the lazy dog while a \"streaming\" reply keeps arriving, token by token; tools run meanwhile. ")
	var b bytes.Buffer
	add := func(event, data string) {
		payloads = append(payloads, []byte(data))
		b.WriteString("event: " + event + "\ndata: " + data + "\n\n")
	}
	q := func(s string) string { out, _ := json.Marshal(s); return string(out) }
	frag := func(i int) string {
		frags := []string{`{"`, `path`, `":"`, `src/`, `main`, `.go`, `","`, `lines`, `":[`}
		switch {
		case i < len(frags):
			return frags[i]
		case i == 994:
			return `0]}`
		}
		return fmt.Sprintf("%d,", i)
	}
	var text, args strings.Builder
	if format == "anthropic" {
		add("message_start", `{"type":"message_start","message":{"model":"claude-sonnet-4-20250514","id":"msg_01KTBB57LAzaSZs8kMNvfnsY","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":424,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":5,"service_tier":"standard"}}}`)
		add("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		for i := range 2999 {
			add("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+q(" "+words[i%len(words)])+`}}`)
		}
		add("content_block_stop", `{"type":"content_block_stop","index":0}`)
		for call := 1; call <= 2; call++ {
			add("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"toolu_01Js4AMfx5qpTLhwTusnvT6%d","name":"read_file","input":{}}}`, call, call))
			for i := range 995 + 1 {
				f := ""
				if i > 0 {
					f = frag(i - 1)
				}
				add("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, call, q(f)))
			}
			add("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, call))
		}
		add("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":4998}}`)
		add("message_stop", `{"type":"message_stop"}`)
		return b.Bytes(), payloads
	}
	seq := 0
	ev := func(typ, fields string) {
		add(typ, fmt.Sprintf(`{"type":%q,%s,"sequence_number":%d}`, typ, fields, seq))
		seq++
	}
	resp := func(status, output string) string {
		return `"response":{"id":"resp_08e0d5fe24768fbd016a3c11fec04081928b7c5c05d975fc26","object":"response","created_at":1782321662,"status":"` + status +
			`","error":null,"incomplete_details":null,"model":"gpt-4o-2024-08-06","output":` + output + `,"parallel_tool_calls":true,"store":false,"usage":null}`
	}
	ev("response.created", resp("in_progress", "[]"))
	ev("response.in_progress", resp("in_progress", "[]"))
	msg := "msg_08e0d5fe24768fbd016a3c11f9002081a180824d7cd06bccbd"
	ev("response.output_item.added", `"output_index":0,"item":{"id":"`+msg+`","type":"message","status":"in_progress","content":[],"role":"assistant"}`)
	ev("response.content_part.added", `"item_id":"`+msg+`","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"text":""}`)
	for i := range 2996 {
		w := " " + words[i%len(words)]
		text.WriteString(w)
		ev("response.output_text.delta", `"item_id":"`+msg+`","output_index":0,"content_index":0,"delta":`+q(w)+`,"logprobs":[],"obfuscation":"abc"`)
	}
	ev("response.output_text.done", `"item_id":"`+msg+`","output_index":0,"content_index":0,"text":`+q(text.String()))
	ev("response.content_part.done", `"item_id":"`+msg+`","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"text":`+q(text.String())+`}`)
	msgItem := `{"id":"` + msg + `","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"text":` + q(text.String()) + `}],"role":"assistant"}`
	ev("response.output_item.done", `"output_index":0,"item":`+msgItem)
	output := []string{msgItem}
	for call := 1; call <= 2; call++ {
		fc := fmt.Sprintf("fc_08e0d5fe24768fbd016a3c120112e481928ab6e9c900d449e%d", call)
		cid := fmt.Sprintf("call_PRiJm2RVAvt7IoRvjxIXxFV%d", call)
		ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":{"id":"%s","type":"function_call","status":"in_progress","arguments":"","call_id":"%s","name":"read_file"}`, call, fc, cid))
		args.Reset()
		for i := range 995 {
			args.WriteString(frag(i))
			ev("response.function_call_arguments.delta", fmt.Sprintf(`"delta":%s,"item_id":"%s","obfuscation":"gXoA7jn","output_index":%d`, q(frag(i)), fc, call))
		}
		ev("response.function_call_arguments.done", fmt.Sprintf(`"arguments":%s,"item_id":"%s","output_index":%d`, q(args.String()), fc, call))
		item := fmt.Sprintf(`{"id":"%s","type":"function_call","status":"completed","arguments":%s,"call_id":"%s","name":"read_file"}`, fc, q(args.String()), cid)
		ev("response.output_item.done", fmt.Sprintf(`"output_index":%d,"item":%s`, call, item))
		output = append(output, item)
	}
	done := strings.Replace(resp("completed", "["+strings.Join(output, ",")+"]"), `"usage":null`,
		`"usage":{"input_tokens":58,"input_tokens_details":{"cached_tokens":0},"output_tokens":4998,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":5056}`, 1)
	ev("response.completed", done)
	return b.Bytes(), payloads
}

// Event is one event as Frames reads it: its event name and its data lines joined.
type Event struct{ Event, Data string }

// Frames frames a whole SSE body the plain way, straight from the spec: strip a BOM,
// split lines on CRLF, CR or LF, dispatch at each empty line; an unterminated last event is
// kept (as the framer keeps it at a clean EOF).
var Frames = func(body string) []Event {
	body = strings.TrimPrefix(body, "\uFEFF")
	body = strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n")
	var (
		out   []Event
		cur   Event
		data  []string
		dirty bool
	)
	dispatch := func() {
		if data != nil {
			cur.Data = strings.Join(data, "\n")
			out = append(out, cur)
		}
		cur, data, dirty = Event{}, nil, false
	}
	for _, line := range strings.Split(body, "\n") {
		switch {
		case line == "":
			if dirty {
				dispatch()
			}
			continue
		case line[0] == ':':
		default:
			name, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch name {
			case "data":
				data = append(data, value)
			case "event":
				cur.Event = value
			}
		}
		dirty = true
	}
	dispatch()
	return out
}

// Scenario is one answer served both ways: as an SSE stream (fragmented) and as a
// chat.completion (stream:false).
type Scenario struct{ SSE, JSON string }

var Scenarios = map[string]Scenario{
	"text then two fragmented calls": {
		SSE: "data: " + Delta(`{"role":"assistant","content":""}`) + "\n\n" +
			"data: " + Delta(`{"content":"Checking "}`) + "\n\n" +
			"data: " + Delta(`{"content":"both."}`) + "\n\n" +
			"data: " + Tool(0, "call_a", "lookup", `"{\"q\":"`) + "\n\n" +
			"data: " + Tool(0, "", "", `"\"home\"}"`) + "\n\n" +
			"data: " + Tool(1, "call_b", "now", `""`) + "\n\n" +
			"data: " + Tool(1, "", "", `"{}"`) + "\n\n" +
			"data: " + FinishChunk("tool_calls") + "\n\n" +
			`data: {"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}}` + "\n\n" +
			"data: [DONE]\n\n",
		JSON: `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Checking both.",` +
			`"tool_calls":[{"id":"call_a","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"home\"}"}},` +
			`{"id":"call_b","type":"function","function":{"name":"now","arguments":"{}"}}]},"finish_reason":"tool_calls"}],` +
			`"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}}`,
	},
	"reasoning and text": {
		SSE: "data: " + Delta(`{"reasoning_content":"Think."}`) + "\n\n" +
			"data: " + Delta(`{"content":"Hello "}`) + "\n\n" +
			"data: " + `{"choices":[{"index":0,"delta":{"content":"world"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}` + "\n\n",
		JSON: `{"choices":[{"index":0,"message":{"role":"assistant","content":"Hello world","reasoning_content":"Think."},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
	},
}

// Seed004 is the reference tool stream: a tool-call delta, its arguments, a short content delta,
// [DONE].
const Seed004 = "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"lookup\"}}]}}]}\n\n" +
	"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"q\\\":\\\"home\\\"}\"}}]}}]}\n\n" +
	"data: {\"choices\":[{\"delta\":{\"content\":\"Found two headings.\"}}]}\n\n" +
	"data: [DONE]\n\n"
