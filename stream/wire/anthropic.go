package wire

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// anthropicDecoder decodes an Anthropic Messages stream: message_start, then per content
// block a content_block_start, its deltas and a content_block_stop, then message_delta
// (stop_reason, usage) and message_stop, with ping and error events anywhere.
//
// Text blocks are the reply, thinking blocks its reasoning; a tool_use block is a call that
// starts at its block's start and is ready at its block's stop (so it runs mid-stream).
// Thinking and redacted_thinking blocks are kept verbatim, with their signatures, to be sent
// back. The stream is complete only at message_stop.
type anthropicDecoder struct {
	replyState
	blocks  map[int]*anthropicBlock
	input   int // prompt tokens, cache reads and writes included
	cached  int // of input, read from the prompt cache
	written int // of input, written to the prompt cache
	output  int
	current *anthropicBlock // the block the last event went to
}

type anthropicBlock struct {
	index     int
	kind      string // text, thinking, redacted_thinking, tool_use, or another (ignored)
	call      *blockCall
	input     json.RawMessage // tool_use: the start's input (a placeholder {} when streamed)
	thinking  []byte
	signature []byte // gathered by appending: deltas add in linear time
	data      string // redacted_thinking
}

func newAnthropicDecoder() *anthropicDecoder {
	return &anthropicDecoder{replyState: replyState{wire: WireAnthropic, endEvent: "message_stop"}}
}

// anthropicEvent is every field phasechat reads from any Anthropic event; each event is
// decoded once, into this.
type anthropicEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message struct {
		Usage *anthropicUsage `json:"usage"`
	} `json:"message"`
	ContentBlock anthropicContent `json:"content_block"`
	Delta        struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		StopReason  string `json:"stop_reason"`
		// TextHalves and ThinkingHalves are the surrogate halves Text and Thinking left lone.
		TextHalves, ThinkingHalves lone
	} `json:"delta"`
	Usage *anthropicUsage `json:"usage"`
}

// anthropicContent is a content block as content_block_start (or a whole message) gives it.
type anthropicContent struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	// TextHalves and ThinkingHalves are the surrogate halves Text and Thinking left lone.
	TextHalves, ThinkingHalves lone
}

// anthropicUsage is a usage report; message_delta's may hold only some counts.
type anthropicUsage struct {
	InputTokens   *int `json:"input_tokens"`
	CacheCreation *int `json:"cache_creation_input_tokens"`
	CacheRead     *int `json:"cache_read_input_tokens"`
	OutputTokens  *int `json:"output_tokens"`
}

// Frame decodes one event. Frames after message_stop are ignored.
func (d *anthropicDecoder) Frame(f Frame) Update {
	u := d.frame(f)
	d.lend.keep(&u)
	return u
}

func (d *anthropicDecoder) frame(f Frame) Update {
	u, data, decode := d.begin(f)
	if !decode {
		return u
	}
	var ev anthropicEvent
	if !decodeAnthropicEvent(f.Data, &ev) {
		d.undecodable(&u)
		return u
	}
	if ev.Type == "" {
		ev.Type = f.Event
	}
	d.apply(&u, &ev, data)
	d.usage.report(&u)
	return u
}

// apply applies one decoded event; data is its JSON (for an error event's message).
func (d *anthropicDecoder) apply(u *Update, ev *anthropicEvent, data []byte) {
	switch ev.Type {
	case "message_start":
		d.addUsage(ev.Message.Usage)
	case "content_block_start":
		d.start(u, ev)
	case "content_block_delta":
		d.delta(u, ev)
	case "content_block_stop":
		d.stop(u, ev.Index)
	case "message_delta":
		if r := ev.Delta.StopReason; r != "" {
			d.finish, d.said = anthropicFinish(r), "stop_reason "+r
		}
		d.addUsage(ev.Usage)
	case "message_stop":
		d.conclude(u)
	case "error":
		d.fail(u, serverError(data))
	}
}

func (d *anthropicDecoder) block(index int) *anthropicBlock {
	if b := d.current; b != nil && b.index == index {
		return b
	}
	b := d.blocks[index]
	if b != nil {
		d.current = b
	}
	return b
}

func (d *anthropicDecoder) start(u *Update, ev *anthropicEvent) {
	cb := &ev.ContentBlock
	b := &anthropicBlock{index: ev.Index, kind: cb.Type}
	if d.blocks == nil {
		d.blocks = map[int]*anthropicBlock{}
	}
	d.blocks[ev.Index], d.current = b, b
	switch cb.Type {
	case "text":
		d.textHalves(u, cb.Text, cb.TextHalves, false)
	case "thinking":
		d.split = true
		b.thinking = append(b.thinking, d.textHalves(u, cb.Thinking, cb.ThinkingHalves, true)...)
		b.signature = append(b.signature, cb.Signature...)
		u.Kept += len(cb.Signature)
	case "redacted_thinking":
		b.data = cb.Data
		u.Kept += len(cb.Data)
	case "tool_use":
		b.input = cb.Input
		b.call, u.Calls = d.calls.open(strconv.Itoa(ev.Index), cb.ID, cb.Name, u.Calls)
		toolEvent(u, cb.Name)
	}
}

func (d *anthropicDecoder) delta(u *Update, ev *anthropicEvent) {
	b := d.block(ev.Index)
	switch dl := &ev.Delta; dl.Type {
	case "text_delta":
		d.textHalves(u, dl.Text, dl.TextHalves, false)
	case "thinking_delta":
		t := d.textHalves(u, dl.Thinking, dl.ThinkingHalves, true)
		if b != nil {
			b.thinking = append(b.thinking, t...)
		}
	case "signature_delta":
		if b != nil {
			b.signature = append(b.signature, dl.Signature...)
			u.Kept += len(dl.Signature)
		}
	case "input_json_delta":
		if b == nil || b.call == nil {
			return // arguments of no call this stream opened
		}
		u.Calls = d.calls.delta(b.call, dl.PartialJSON, u.Calls)
		toolEvent(u, b.call.name)
	}
}

// stop ends a block: a tool call becomes ready (its input's whole JSON, when no argument
// text was streamed); a signed thinking block or a redacted one is kept to be sent back.
func (d *anthropicDecoder) stop(u *Update, index int) {
	b := d.block(index)
	if b == nil {
		return
	}
	switch b.kind {
	case "text":
		d.flushHalf(u, false)
	case "tool_use":
		if c := b.call; c != nil {
			if len(c.args) == 0 && len(bytes.TrimSpace(b.input)) > 0 && b.input[0] == '{' {
				u.Calls = d.calls.complete(c, string(bytes.TrimSpace(b.input)), u.Calls)
			}
			u.Calls = d.calls.ready(c, u.Calls)
			toolEvent(u, c.name)
		}
	case "thinking":
		b.thinking = append(b.thinking, d.flushHalf(u, true)...)
		if len(b.signature) > 0 {
			d.keep(map[string]string{"type": "thinking", "thinking": string(b.thinking), "signature": string(b.signature)})
		}
	case "redacted_thinking":
		if b.data != "" {
			d.keep(map[string]string{"type": "redacted_thinking", "data": b.data})
		}
	}
	delete(d.blocks, index)
	d.current = nil
}

func (d *anthropicDecoder) keep(block map[string]string) {
	if raw, err := json.Marshal(block); err == nil {
		d.replay = append(d.replay, raw)
	}
}

// addUsage folds in a usage report: counts it holds replace the ones before (they are
// running totals, never summed across events).
func (d *anthropicDecoder) addUsage(us *anthropicUsage) {
	if us == nil {
		return
	}
	if us.InputTokens != nil || us.CacheCreation != nil || us.CacheRead != nil {
		d.input = deref(us.InputTokens) + deref(us.CacheCreation) + deref(us.CacheRead)
		d.cached, d.written = deref(us.CacheRead), deref(us.CacheCreation)
	}
	if us.OutputTokens != nil {
		d.output = *us.OutputTokens
	}
	d.setUsage(Usage{PromptTokens: d.input, CompletionTokens: d.output, CachedTokens: d.cached, CacheWriteTokens: d.written})
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// anthropicFinish maps a stop_reason onto the finish reasons the chat knows: end_turn and
// stop_sequence are stop, tool_use is tool_calls, max_tokens (and a full context window) is
// length, refusal is content_filter; anything else is kept as sent.
func anthropicFinish(reason string) string {
	switch reason {
	case "end_turn", "stop_sequence":
		return "stop"
	case "tool_use":
		return "tool_calls"
	case "max_tokens", "model_context_window_exceeded":
		return "length"
	case "refusal":
		return "content_filter"
	}
	return reason
}
