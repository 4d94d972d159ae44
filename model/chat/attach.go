package chat

import (
	"strings"

	"github.com/phasechat/phasechat/stream/wire"
)

// withChips is a user message as the transcript shows it: the text, then one line of the
// files' chips ("[file notes.txt · 37 lines] [image red.png · 8×8 · 1 KB]").
func withChips(text string, files []wire.Attachment) string {
	if len(files) == 0 {
		return text
	}
	chips := make([]string, len(files))
	for i, f := range files {
		chips[i] = f.Chip()
	}
	if strings.TrimSpace(text) == "" {
		return strings.Join(chips, " ")
	}
	return text + "\n" + strings.Join(chips, " ")
}
