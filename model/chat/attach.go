package chat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// promptSpec is a user message as the transcript shows it: its text and its files' chips,
// each file's details shown when the prompt is expanded.
func promptSpec(text string, files []wire.Attachment) transcript.Spec {
	s := transcript.Spec{Role: transcript.RoleUser, Text: withChips(text, files)}
	for _, f := range files {
		s.Files = append(s.Files, transcript.File{Chip: f.Chip(), Details: fileDetails(f)})
	}
	return s
}

// fileDetails is what expanding a prompt shows of a file it carried: a text file's contents
// (secrets already removed when it was read), else its type, size and content hash.
func fileDetails(f wire.Attachment) string {
	if f.Data == nil && f.Size > 0 {
		return "its contents are no longer in the session store"
	}
	if f.Kind == wire.AttachText {
		return string(f.Data)
	}
	size := format.Bytes(int64(f.Size))
	if f.Kind == wire.AttachImage {
		size = fmt.Sprintf("%d×%d pixels · %s", f.Width, f.Height, size)
	}
	return fmt.Sprintf("%s · %s\nname: %s\nsha256: %s", f.MediaType, size, f.Name, f.Hash)
}

// withChips is a user message's text as the transcript shows it: the text, then one line of
// the files' chips ("[file notes.txt · 37 lines] [image red.png · 8×8 · 1 KB]").
func withChips(text string, files []wire.Attachment) string {
	if len(files) == 0 {
		return text
	}
	chips := Chips(files)
	if strings.TrimSpace(text) == "" {
		return strings.Join(chips, " ")
	}
	return text + "\n" + strings.Join(chips, " ")
}

// Attach adds files to send with the next message. A file already attached (the same name
// and contents) is not added twice.
func (c *Chat) Attach(files ...wire.Attachment) {
	for _, f := range files {
		if !slices.ContainsFunc(c.attached, func(a wire.Attachment) bool { return a.Name == f.Name && a.Hash == f.Hash }) {
			c.attached = append(c.attached, f)
		}
	}
}

// Attached are the files the next message will carry, in the order attached.
func (c *Chat) Attached() []wire.Attachment { return c.attached }

// Detach drops the files attached for the next message and says how many there were.
func (c *Chat) Detach() int {
	n := len(c.attached)
	c.attached = nil
	return n
}

// Chips are files' chips, in order.
func Chips(files []wire.Attachment) []string {
	if len(files) == 0 {
		return nil
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Chip()
	}
	return out
}

// ImagesRefused says why the next message cannot be sent with files (those attached, then
// files) to the model in use: the model is known to take no images (Budget.TextOnly) and
// one of them is an image. "" when it can be sent; a model nothing is known of is never
// refused.
func (c *Chat) ImagesRefused(files []wire.Attachment) string {
	if !c.cfg.Budget.TextOnly {
		return ""
	}
	image := func(fs []wire.Attachment) (string, bool) {
		for _, f := range fs {
			if f.Kind == wire.AttachImage {
				return f.Name, true
			}
		}
		return "", false
	}
	name, ok := image(c.attached)
	if !ok {
		name, ok = image(files)
	}
	if !ok {
		return ""
	}
	return fmt.Sprintf("The message was not sent: the model %s takes no images (the model catalogue says so) and %s is one. "+
		"Switch models with /model, or drop the files with /attach clear; if the model does take images, "+
		"set images = true under [model.%q] in the config file.", c.cfg.Model, baseName(name), c.cfg.Model)
}

// baseName is the last element of a slash-separated path.
func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return p
}
