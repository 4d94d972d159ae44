package sessions

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

// Markdown writes a session as a Markdown document: a title, what it was held with, then each
// message under a heading of its role; tool calls and results go in code fences long enough
// that no backticks inside can end them. Text is sanitised (no terminal escapes survive).
func Markdown(w io.Writer, m Meta, log sessionlog.Log) error {
	var b strings.Builder
	title := m.Title
	if title == "" {
		title = "Untitled conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n", safe.Line(title))
	fmt.Fprintf(&b, "- Session: %s\n", m.ID)
	if h := log.Header; h != nil {
		if len(log.Models) > 0 {
			fmt.Fprintf(&b, "- Model: %s\n", safe.Line(strings.Join(log.Models, ", then ")))
		}
		if h.Endpoint != "" {
			fmt.Fprintf(&b, "- Endpoint: %s\n", safe.Line(h.Endpoint))
		}
	} else if m.Model != "" {
		fmt.Fprintf(&b, "- Model: %s\n", safe.Line(m.Model))
	}
	fmt.Fprintf(&b, "- Created: %s\n", m.Created.Local().Format(time.DateTime))
	if note := log.SkippedNote(); note != "" {
		fmt.Fprintf(&b, "- Damaged: %s\n", note)
	}
	if u := log.Usage; u.TotalTokens > 0 || u.PromptTokens > 0 {
		fmt.Fprintf(&b, "- Tokens: %d in, %d out\n", u.PromptTokens, u.CompletionTokens)
	}
	if m.CostUSD > 0 {
		fmt.Fprintf(&b, "- Cost: %s\n", budget.Dollars(m.CostUSD))
	}
	if h := log.Header; h != nil && h.System != "" {
		fmt.Fprintf(&b, "\n## System\n\n%s\n", safe.Text(h.System))
	}
	for i, msg := range log.Messages {
		switch msg.Role {
		case "user":
			fmt.Fprintf(&b, "\n## You\n\n%s\n", safe.Text(msg.Text()))
			writeAttachments(&b, msg.Attachments)
		case "assistant":
			// The text and the calls in the order the reply showed them; the calls that came
			// after all its text follow the note on an incomplete reply, as they always did.
			b.WriteString("\n## Assistant")
			if model := replyModel(log, i); model != "" && len(log.Models) > 1 { // one model: the header names it
				b.WriteString(" (" + safe.Line(model) + ")")
			}
			b.WriteString("\n\n")
			tail := len(msg.Parts) // the calls after all the text start here
			for tail > 0 && !isText(msg.Parts[tail-1]) {
				tail--
			}
			for _, p := range msg.Parts[:tail] {
				writePart(&b, p)
			}
			if why := msg.End.Text(); why != "" {
				fmt.Fprintf(&b, "\n*[The reply is incomplete: %s.]*\n", safe.Line(strings.TrimSuffix(why, ".")))
			}
			for _, p := range msg.Parts[tail:] {
				writePart(&b, p)
			}
		case "tool":
			fmt.Fprintf(&b, "\nResult of `%s`:\n\n%s", safe.Line(msg.Name), fenced("", msg.Text()))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCall writes a tool call: its name, and its arguments fenced.
func writeCall(b *strings.Builder, c wire.ToolCall) {
	fmt.Fprintf(b, "\nTool call `%s`:\n\n%s", safe.Line(c.Name), fenced("json", c.Arguments))
}

// fenced puts text in a code fence longer than any run of backticks in it.
func fenced(lang, text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + strings.TrimRight(safe.Text(text), "\n") + "\n" + fence + "\n"
}

// Export is a session as JSON.
type Export struct {
	Meta
	Endpoint string         `json:"endpoint,omitempty"`
	System   string         `json:"system,omitempty"`
	Models   []string       `json:"models,omitempty"` // every model the conversation used, in order
	Usage    *wire.Usage    `json:"usage"`            // nil (null): the server reported none
	Messages []wire.Message `json:"messages"`
	// Incomplete lists the replies that ended before they were whole, and why.
	Incomplete []Incomplete `json:"incomplete,omitempty"`
	// Answered names the model of each reply, when the log names one.
	Answered []Answered `json:"answered,omitempty"`
}

// Answered is a reply and the model ("provider/model") that wrote it: Message is its index
// in Messages.
type Answered struct {
	Message int    `json:"message"`
	Model   string `json:"model"`
}

// Incomplete is a reply that ended before it was whole: Message is its index in Messages.
type Incomplete struct {
	Message int    `json:"message"`
	Why     string `json:"why"`
}

// isText reports whether p is a run of text.
func isText(p wire.Part) bool {
	_, ok := p.(wire.Text)
	return ok
}

// writePart writes a reply's part: a run of its text, or a call; reasoning is left out.
func writePart(b *strings.Builder, p wire.Part) {
	switch p := p.(type) {
	case wire.Text:
		b.WriteString(safe.Text(p.Text) + "\n")
	case wire.ToolCall:
		writeCall(b, p)
	}
}

// JSON writes a session as one indented JSON object (messages in the API's own shape).
func JSON(w io.Writer, m Meta, log sessionlog.Log) error {
	e := Export{Meta: m, Messages: log.Messages}
	if log.UsageReported {
		u := log.Usage
		e.Usage = &u
	}
	if e.Messages == nil {
		e.Messages = []wire.Message{}
	}
	if h := log.Header; h != nil {
		e.Endpoint, e.System = h.Endpoint, h.System
	}
	e.Models = log.Models
	for i, m := range e.Messages {
		if !m.End.Whole() {
			e.Incomplete = append(e.Incomplete, Incomplete{Message: i, Why: m.End.Text()})
		}
		if model := replyModel(log, i); model != "" {
			e.Answered = append(e.Answered, Answered{Message: i, Model: model})
		}
	}
	return WriteJSON(w, e)
}

// WriteJSON writes v as indented JSON and a newline, with the characters a terminal would act
// on or hide (C1 and bidi controls, invisible characters) as \u escapes: the same strings,
// safe to print.
func WriteJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(safe.JSON(b), '\n'))
	return err
}

// replyModel is the model that wrote message i of log when it is a reply; "" for other
// messages, or when the log names none.
func replyModel(log sessionlog.Log, i int) string {
	if log.Messages[i].Role != "assistant" || i >= len(log.MessageModels) {
		return ""
	}
	return log.MessageModels[i]
}
