package rows

import (
	"strings"

	"github.com/phasechat/phasechat/view/safe"
)

// WrapKey is what an IncWrap's lines depend on besides the text.
type WrapKey struct {
	Base   int    // the wrapped run is text[base:]
	Gap    bool   // a blank line comes first
	Width  int    // cells per line
	Indent string // prefix of every line
}

// IncWrap plain-wraps text[base:] of a text that grows by appends (a streaming reply's open
// block, streaming reasoning). Complete source lines (ending in '\n') are sanitised and wrapped
// once; each update re-wraps only the last, partial line, so its cost does not grow with the
// text. Sanitising line by line equals sanitising the whole, since safe.Text is per rune.
type IncWrap struct {
	src  string // the text last seen; later text must extend it, or wrapping restarts
	key  WrapKey
	done int // text[key.base:done] is wrapped into out
	out  Builder
}

// Update returns the wrapped complete lines and the wrapped partial last line of text[k.Base:].
func (w *IncWrap) Update(text string, k WrapKey, style func(string) string) (complete, partial Lines) {
	if w.key != k || len(text) < len(w.src) || !strings.HasPrefix(text, w.src) {
		*w = IncWrap{key: k, done: k.Base}
		if k.Gap {
			w.out.Add("")
		}
	}
	w.src = text
	if last := strings.LastIndexByte(text[w.done:], '\n'); last >= 0 {
		end := w.done + last
		WrapInto(&w.out, safe.Text(text[w.done:end]), k.Width, k.Indent, k.Indent, style)
		w.done = end + 1
	}
	if w.done < len(text) {
		partial = WrapText(safe.Text(text[w.done:]), k.Width, k.Indent, k.Indent, style)
	}
	return w.out.Snapshot(), partial
}
