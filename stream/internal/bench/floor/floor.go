// Package floor is the least a client must do to read an OpenAI chat-completion stream: a
// bufio.Scanner line split and one decode of each payload into a struct of the fields
// phasechat uses, appended as the chunks say. It is the floor phasechat's own pipeline is
// measured against; it does no validation, no phase tracking and no tool-call state machine.
package floor

import (
	"bufio"
	"bytes"
	"io"
	"sort"
)

// Chunk is the part of a chat.completion.chunk a client reads.
type Chunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"`
			Reasoning        string `json:"reasoning"`
			ToolCalls        []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Call is one reassembled tool call.
type Call struct {
	Index     int
	ID, Name  string
	Arguments []byte
}

// Reply is what a stream said.
type Reply struct {
	Content, Reasoning []byte
	Calls              []*Call
	FinishReason       string
	PromptTokens       int
	CompletionTokens   int
	Error              string
}

// Read reads an SSE body, decoding each data payload with unmarshal.
func Read(body io.Reader, unmarshal func([]byte, any) error) (*Reply, error) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	r := &Reply{}
	byIndex := map[int]*Call{}
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("data:")) {
			continue
		}
		data := bytes.TrimSpace(line[len("data:"):])
		if bytes.Equal(data, []byte("[DONE]")) {
			break
		}
		var ch Chunk
		if err := unmarshal(data, &ch); err != nil {
			continue
		}
		if ch.Usage != nil {
			r.PromptTokens, r.CompletionTokens = ch.Usage.PromptTokens, ch.Usage.CompletionTokens
		}
		if ch.Error != nil {
			r.Error = ch.Error.Message
		}
		for _, c := range ch.Choices {
			if c.Index != 0 {
				continue
			}
			r.Content = append(r.Content, c.Delta.Content...)
			r.Reasoning = append(r.Reasoning, c.Delta.ReasoningContent...)
			r.Reasoning = append(r.Reasoning, c.Delta.Reasoning...)
			for _, tc := range c.Delta.ToolCalls {
				call := byIndex[tc.Index]
				if call == nil {
					call = &Call{Index: tc.Index}
					byIndex[tc.Index] = call
					r.Calls = append(r.Calls, call)
				}
				if tc.ID != "" {
					call.ID = tc.ID
				}
				if tc.Function.Name != "" {
					call.Name = tc.Function.Name
				}
				call.Arguments = append(call.Arguments, tc.Function.Arguments...)
			}
			if c.FinishReason != "" {
				r.FinishReason = c.FinishReason
			}
		}
	}
	sort.Slice(r.Calls, func(i, j int) bool { return r.Calls[i].Index < r.Calls[j].Index })
	return r, sc.Err()
}
