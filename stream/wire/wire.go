package wire

import (
	"encoding/json"
	"strconv"

	"github.com/phasechat/phasechat/internal/jsonstr"
)

// The wire types below are the part of an OpenAI chat.completion.chunk (and, for stream:false,
// chat.completion) that phasechat reads. Fields whose JSON type varies between providers are
// decoded by type, never by truthiness: a string is text, null is absence, and any other type
// is either handled explicitly (content blocks, object arguments) or ignored.

type wireChunk struct {
	Choices []wireChoice    `json:"choices"`
	Usage   *wireUsage      `json:"usage"`
	Error   json.RawMessage `json:"error"`
	Type    string          `json:"type"` // Anthropic Messages events: "message_start", ...
}

type wireChoice struct {
	Index        wireIndex  `json:"index"`
	Delta        wireDelta  `json:"delta"`
	Message      *wireDelta `json:"message"` // stream:false only; some streams repeat it: ignored
	FinishReason wireString `json:"finish_reason"`
}

type wireDelta struct {
	Content          wireContent    `json:"content"`
	ReasoningContent wireString     `json:"reasoning_content"`
	Reasoning        wireString     `json:"reasoning"`
	ToolCalls        []wireToolCall `json:"tool_calls"`
	FunctionCall     *wireFunction  `json:"function_call"` // the pre-tools form: one call
}

// legacyCall is the delta's function_call (the pre-tools form, one call per reply) as the
// fragment of the call at index 0; ok is false when there is none or it carries nothing.
func (d *wireDelta) legacyCall() (f wireToolCall, ok bool) {
	fc := d.FunctionCall
	if fc == nil || !fc.Name.Set && !fc.Arguments.Set {
		return f, false
	}
	f.Index = wireIndex{N: 0, Set: true}
	f.Function = *fc
	return f, true
}

// reasoning is the delta's reasoning text: reasoning_content (DeepSeek, xAI, llama.cpp ...) or
// reasoning (OpenRouter, Groq, vLLM ...).
func (d *wireDelta) reasoning() wireString {
	if d.ReasoningContent.Set {
		return d.ReasoningContent
	}
	return d.Reasoning
}

// reasoningField names the field reasoning() read, "" when neither held text.
func (d *wireDelta) reasoningField() string {
	switch {
	case d.ReasoningContent.Set && d.ReasoningContent.S != "":
		return FieldReasoningContent
	case !d.ReasoningContent.Set && d.Reasoning.Set && d.Reasoning.S != "":
		return FieldReasoning
	}
	return ""
}

type wireToolCall struct {
	Index        wireIndex       `json:"index"`
	ID           wireString      `json:"id"`
	Function     wireFunction    `json:"function"`
	ExtraContent json.RawMessage `json:"extra_content"` // Gemini: thought signatures
}

type wireFunction struct {
	Name      wireString `json:"name"`
	Arguments wireArgs   `json:"arguments"`
}

// extraContent is a tool call's extra_content kept for sending back: a JSON object, copied;
// nil for null, absence or any other type.
func extraContent(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	return append(json.RawMessage(nil), raw...)
}

type wireUsage struct {
	PromptTokens      int              `json:"prompt_tokens"`
	CompletionTokens  int              `json:"completion_tokens"`
	TotalTokens       int              `json:"total_tokens"`
	PromptDetails     wireTokenDetails `json:"prompt_tokens_details"`
	CompletionDetails wireTokenDetails `json:"completion_tokens_details"`
	CacheHitTokens    int              `json:"prompt_cache_hit_tokens"` // DeepSeek's cached prompt tokens
}

// wireTokenDetails is prompt_tokens_details or completion_tokens_details: each holds the
// count the other leaves out.
type wireTokenDetails struct {
	CachedTokens    int `json:"cached_tokens"`
	ReasoningTokens int `json:"reasoning_tokens"`
}

// usage is the report as Usage: cached tokens from the details (DeepSeek's count when they
// hold none), reasoning tokens from the completion's details.
func (w *wireUsage) usage() Usage {
	u := Usage{PromptTokens: w.PromptTokens, CompletionTokens: w.CompletionTokens, TotalTokens: w.TotalTokens,
		CachedTokens: w.PromptDetails.CachedTokens, ReasoningTokens: w.CompletionDetails.ReasoningTokens}
	if u.CachedTokens == 0 {
		u.CachedTokens = w.CacheHitTokens
	}
	return u
}

// wireIndex is an integer index; Set is false for null, absence or any other type.
type wireIndex struct {
	N   int
	Set bool
}

func (w *wireIndex) UnmarshalJSON(b []byte) error {
	if n, err := strconv.Atoi(string(b)); err == nil {
		w.N, w.Set = n, true
	}
	return nil
}

// wireString is a JSON string; Set is false for null, absence or any other type.
type wireString struct {
	S   string
	Set bool
	lone
}

func (w *wireString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		w.S, w.lone = unquote(b)
		w.Set = true
	}
	return nil
}

// lone is the UTF-16 surrogate halves a string's \u escapes left unpaired at its edges: a low
// half as its very first escape, a high half as its very last (0: none). Each was decoded as
// U+FFFD, the last three bytes or the first three of the text; a stream joins them with the
// half that the neighbouring delta of the same text brings.
type lone struct{ low, high rune }

// wireContent is delta.content: a string, or (Mistral magistral) an array of blocks, where
// "thinking" blocks are reasoning and "text" blocks are content. Parts keeps the blocks in
// order; Set is false for null, absence or another type.
type wireContent struct {
	Parts []contentPart
	Set   bool
}

type contentPart struct {
	Text      string
	Reasoning bool
	lone
}

func (w *wireContent) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0:
	case b[0] == '"':
		text, halves := unquote(b)
		w.Parts, w.Set = []contentPart{{Text: text, lone: halves}}, true
	case b[0] == '[':
		var blocks []struct {
			Type     string          `json:"type"`
			Text     wireString      `json:"text"`
			Thinking json.RawMessage `json:"thinking"`
		}
		if json.Unmarshal(b, &blocks) != nil {
			return nil
		}
		w.Set = true
		for _, bl := range blocks {
			switch bl.Type {
			case "text":
				w.Parts = append(w.Parts, contentPart{Text: bl.Text.S, lone: bl.Text.lone})
			case "thinking":
				w.Parts = append(w.Parts, contentPart{Text: thinkingText(bl.Thinking), Reasoning: true})
			}
		}
	}
	return nil
}

// thinkingText reads a thinking block's body: a string, or an array of text blocks.
func thinkingText(b json.RawMessage) string {
	var s wireString
	if s.UnmarshalJSON(b); s.Set {
		return s.S
	}
	var parts []struct {
		Text wireString `json:"text"`
	}
	_ = json.Unmarshal(b, &parts)
	var out []byte
	for _, p := range parts {
		out = append(out, p.Text.S...)
	}
	return string(out)
}

// wireArgs is function.arguments: a string fragment, or a whole JSON value sent as
// itself, kept as its JSON text. Set is false for null or absence.
type wireArgs struct {
	Text  string
	Whole bool
	Set   bool
	lone
}

func (w *wireArgs) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0 || string(b) == "null":
	case b[0] == '"':
		w.Text, w.lone = unquote(b)
		w.Set = true
	default:
		w.Text, w.Whole, w.Set = string(b), true, true
	}
	return nil
}

// unquote decodes a JSON string literal that encoding/json has already validated.
func unquote(b []byte) (string, lone) {
	text, halves := jsonstr.Unescape(string(b[1 : len(b)-1]))
	return text, lone{low: halves.Low, high: halves.High}
}
