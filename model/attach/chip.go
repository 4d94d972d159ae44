package attach

import (
	"strconv"
	"strings"

	"github.com/phasechat/phasechat/stream/wire"
)

// Chip is the attachment as one line in the transcript (see wire.Attachment.Chip).
func (f File) Chip() string { return f.Attachment().Chip() }

// Attachment is f as a user message carries it.
func (f File) Attachment() wire.Attachment {
	return wire.Attachment{Name: f.Name, Kind: f.Kind, MediaType: f.MediaType, Hash: f.Hash(), Size: len(f.Data),
		Width: f.Width, Height: f.Height, Lines: f.Lines, Data: f.Data}
}

// quote is name as an error message shows it: quoted when it holds a space or is empty.
func quote(name string) string {
	if name == "" || strings.ContainsAny(name, " \t\"") {
		return strconv.Quote(name)
	}
	return name
}
