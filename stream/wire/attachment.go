package wire

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/phasechat/phasechat/internal/format"
)

// AttachmentKind is how an attachment is sent.
type AttachmentKind string

const (
	// AttachText is a text file, sent as a text part holding its path and contents.
	AttachText AttachmentKind = "text"
	// AttachImage is a PNG, JPEG, GIF or WebP image, sent as the format's image part.
	AttachImage AttachmentKind = "image"
	// AttachPDF is a PDF, sent as the format's document or file part.
	AttachPDF AttachmentKind = "pdf"
)

// Attachment is a file sent with a user message, after its text. The session log keeps the
// fields with JSON names and finds Data again by Hash (the SHA-256 of Data, in hex) in the
// session's store; only requests carry Data.
type Attachment struct {
	Name      string         `json:"name"` // the path as the user gave it
	Kind      AttachmentKind `json:"kind"`
	MediaType string         `json:"media_type"`
	Hash      string         `json:"sha256"`
	Size      int            `json:"size"`
	Width     int            `json:"width,omitempty"`  // images, in pixels
	Height    int            `json:"height,omitempty"` // images, in pixels
	Lines     int            `json:"lines,omitempty"`  // text
	Data      []byte         `json:"-"`
}

// The largest image each format takes, in bytes of the file: Anthropic refuses images over
// 5 MB; OpenAI's APIs take up to 20 MB per image (and compatible servers no more).
const (
	maxAnthropicImage = 5 << 20
	maxOpenAIImage    = 20 << 20
)

// MaxImageBytes is the largest image file w takes, in bytes.
func MaxImageBytes(w Wire) int {
	if w == WireAnthropic {
		return maxAnthropicImage
	}
	return maxOpenAIImage
}

// CheckAttachments says, before anything is sent, why w cannot carry one of msgs'
// attachments (nil when it can): an image over the format's size limit, or one whose bytes
// were not kept (a resumed conversation whose file is gone).
func CheckAttachments(w Wire, msgs []Message) error {
	limit := MaxImageBytes(w)
	for _, m := range msgs {
		for _, a := range m.Attachments {
			switch {
			case a.Data == nil && a.Size > 0:
				return fmt.Errorf("the attachment %s of an earlier message is no longer in the session store; start a new conversation or attach it again", strconv.Quote(a.Name))
			case a.Kind == AttachImage && len(a.Data) > limit:
				return fmt.Errorf("the image %s is %d bytes, more than the %d MB %s takes; make it smaller and attach it again", strconv.Quote(a.Name), len(a.Data), limit>>20, w.Label())
			}
		}
	}
	return nil
}

// fileText is a text attachment as the model reads it: its path and line count on the
// opening tag, the contents, and a closing tag on a line of its own, so the model sees where
// the file starts and ends.
func fileText(a Attachment) string {
	var b strings.Builder
	b.Grow(len(a.Data) + len(a.Name) + 48)
	fmt.Fprintf(&b, "<file path=%s lines=\"%d\">\n", strconv.Quote(a.Name), a.Lines)
	b.Write(a.Data)
	if len(a.Data) > 0 && a.Data[len(a.Data)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("</file>")
	return b.String()
}

// dataURL is a's contents as a data: URL.
func dataURL(a Attachment) string {
	return "data:" + a.MediaType + ";base64," + base64.StdEncoding.EncodeToString(a.Data)
}

// chatUserMessage is a user message with attachments as Chat Completions takes it: content
// as a list of parts (text, image_url with a data: URL, file with file_data for a PDF).
func chatUserMessage(m Message) any {
	parts := make([]map[string]any, 0, len(m.Attachments)+1)
	if m.Text() != "" {
		parts = append(parts, map[string]any{"type": "text", "text": m.Text()})
	}
	for _, a := range m.Attachments {
		switch a.Kind {
		case AttachImage:
			parts = append(parts, map[string]any{"type": "image_url", "image_url": map[string]string{"url": dataURL(a)}})
		case AttachPDF:
			parts = append(parts, map[string]any{"type": "file", "file": map[string]string{"filename": baseName(a.Name), "file_data": dataURL(a)}})
		default:
			parts = append(parts, map[string]any{"type": "text", "text": fileText(a)})
		}
	}
	out := map[string]any{"role": m.Role, "content": parts}
	if m.Name != "" {
		out["name"] = m.Name
	}
	return out
}

// anthropicUserBlocks is a user message's content blocks for Messages: its text, then each
// attachment as a text, image or document block with a base64 source.
func anthropicUserBlocks(m Message) []json.RawMessage {
	blocks := textBlock(m.Text())
	for _, a := range m.Attachments {
		source := map[string]string{"type": "base64", "media_type": a.MediaType, "data": base64.StdEncoding.EncodeToString(a.Data)}
		switch a.Kind {
		case AttachImage:
			blocks = append(blocks, mustJSON(anthropicBlockOut{"type": "image", "source": source}))
		case AttachPDF:
			blocks = append(blocks, mustJSON(anthropicBlockOut{"type": "document", "source": source, "title": baseName(a.Name)}))
		default:
			blocks = append(blocks, textBlock(fileText(a))...)
		}
	}
	return blocks
}

// responsesUserContent is a user message's content for Responses: the text alone when there
// is no attachment, else a list of input_text, input_image and input_file parts.
func responsesUserContent(m Message) any {
	if len(m.Attachments) == 0 {
		return m.Text()
	}
	parts := make([]map[string]string, 0, len(m.Attachments)+1)
	if m.Text() != "" {
		parts = append(parts, map[string]string{"type": "input_text", "text": m.Text()})
	}
	for _, a := range m.Attachments {
		switch a.Kind {
		case AttachImage:
			parts = append(parts, map[string]string{"type": "input_image", "image_url": dataURL(a)})
		case AttachPDF:
			parts = append(parts, map[string]string{"type": "input_file", "filename": baseName(a.Name), "file_data": dataURL(a)})
		default:
			parts = append(parts, map[string]string{"type": "input_text", "text": fileText(a)})
		}
	}
	return parts
}

// baseName is the last element of a slash- or backslash-separated path.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return p
}

// Chip is the attachment as one line in the transcript: kind, file name, and how big it is —
// "[image red.png · 8×8 · 1 KB]", "[file notes.txt · 37 lines]", "[pdf report.pdf · 120 KB]".
// The name is not sanitised here: whoever draws it does.
func (a Attachment) Chip() string {
	label := "file"
	if a.Kind != AttachText {
		label = string(a.Kind)
	}
	parts := []string{label + " " + baseName(a.Name)}
	switch a.Kind {
	case AttachImage:
		parts = append(parts, fmt.Sprintf("%d×%d", a.Width, a.Height), format.Bytes(int64(a.Size)))
	case AttachText:
		parts = append(parts, strconv.Itoa(a.Lines)+" "+format.Plural(a.Lines, "line", "lines"))
	default:
		parts = append(parts, format.Bytes(int64(a.Size)))
	}
	return "[" + strings.Join(parts, " · ") + "]"
}

// Spoken is the attachment in words, for the line mode: its file name and how big it is —
// "notes.txt (37 lines)", "red.png (image, 8×8 pixels, 1 KB)", "report.pdf (PDF, 120 KB)".
// The name is not sanitised here: whoever prints it does.
func (a Attachment) Spoken() string {
	var what string
	switch a.Kind {
	case AttachText:
		what = strconv.Itoa(a.Lines) + " " + format.Plural(a.Lines, "line", "lines")
	case AttachImage:
		what = fmt.Sprintf("image, %d×%d pixels, %s", a.Width, a.Height, format.Bytes(int64(a.Size)))
	default:
		what = "PDF, " + format.Bytes(int64(a.Size))
	}
	return baseName(a.Name) + " (" + what + ")"
}
