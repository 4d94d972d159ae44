package attach

import (
	"bytes"
	"unicode/utf8"

	"github.com/phasechat/phasechat/stream/wire"
)

// magic is a kind's signature at the start of a file.
type magic struct {
	prefix    []byte
	also      []byte // a second signature at alsoAt (RIFF's form type), nil for none
	alsoAt    int
	kind      wire.AttachmentKind
	mediaType string
}

var magics = []magic{
	{prefix: []byte("\x89PNG\r\n\x1a\n"), kind: wire.AttachImage, mediaType: "image/png"},
	{prefix: []byte("\xff\xd8\xff"), kind: wire.AttachImage, mediaType: "image/jpeg"},
	{prefix: []byte("GIF87a"), kind: wire.AttachImage, mediaType: "image/gif"},
	{prefix: []byte("GIF89a"), kind: wire.AttachImage, mediaType: "image/gif"},
	{prefix: []byte("RIFF"), also: []byte("WEBP"), alsoAt: 8, kind: wire.AttachImage, mediaType: "image/webp"},
	{prefix: []byte("%PDF-"), kind: wire.AttachPDF, mediaType: "application/pdf"},
}

// textSniff is how many leading bytes decide whether a file is text.
const textSniff = 8 << 10

// Sniff says what data is, from its bytes alone: an image or PDF by its signature, text when
// its first bytes are UTF-8 (a cut rune at the end of the sample allowed) with no NUL. ok is
// false for anything else: a binary file that cannot be sent.
func Sniff(data []byte) (kind wire.AttachmentKind, mediaType string, ok bool) {
	for _, m := range magics {
		if bytes.HasPrefix(data, m.prefix) &&
			(m.also == nil || len(data) >= m.alsoAt+len(m.also) && bytes.Equal(data[m.alsoAt:m.alsoAt+len(m.also)], m.also)) {
			return m.kind, m.mediaType, true
		}
	}
	if isText(data) {
		return wire.AttachText, "text/plain", true
	}
	return "", "", false
}

// isText reports whether data's first textSniff bytes are UTF-8 without NUL; a rune cut by
// the sample's end does not count against it.
func isText(data []byte) bool {
	sample := data[:min(len(data), textSniff)]
	if bytes.IndexByte(sample, 0) >= 0 {
		return false
	}
	if len(sample) < len(data) {
		sample = trimCutRune(sample)
	}
	return utf8.Valid(sample)
}

// trimCutRune drops a rune cut off at the end of b.
func trimCutRune(b []byte) []byte {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if r := b[len(b)-i]; utf8.RuneStart(r) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}
