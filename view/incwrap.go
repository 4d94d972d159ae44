package view

import (
	"strings"

	"github.com/phasechat/phasechat/view/safe"
)

// wrapKey is what an incWrap's lines depend on besides the text.
type wrapKey struct {
	base   int    // the wrapped run is text[base:]
	gap    bool   // a blank line comes first
	width  int    // cells per line
	indent string // prefix of every line
}

// incWrap plain-wraps text[base:] of a text that grows by appends (a streaming reply's open
// block, streaming reasoning). Complete source lines (ending in '\n') are sanitised and wrapped
// once; each update re-wraps only the last, partial line, so its cost does not grow with the
// text. Sanitising line by line equals sanitising the whole, since safe.Text is per rune.
type incWrap struct {
	src  string // the text last seen; later text must extend it, or wrapping restarts
	key  wrapKey
	done int // text[key.base:done] is wrapped into out
	out  linesBuilder
}

// update returns the wrapped complete lines and the wrapped partial last line of text[k.base:].
func (w *incWrap) update(text string, k wrapKey, style func(string) string) (complete, partial lines) {
	if w.key != k || len(text) < len(w.src) || !strings.HasPrefix(text, w.src) {
		*w = incWrap{key: k, done: k.base}
		if k.gap {
			w.out.add("")
		}
	}
	w.src = text
	if last := strings.LastIndexByte(text[w.done:], '\n'); last >= 0 {
		end := w.done + last
		wrapInto(&w.out, safe.Text(text[w.done:end]), k.width, k.indent, k.indent, style)
		w.done = end + 1
	}
	if w.done < len(text) {
		partial = wrapText(safe.Text(text[w.done:]), k.width, k.indent, k.indent, style)
	}
	return w.out.snapshot(), partial
}
