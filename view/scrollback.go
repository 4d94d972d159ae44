package view

import (
	"github.com/phasechat/phasechat/view/rows"
)
import "github.com/phasechat/phasechat/phase/transcript"

// Lines draws entries at width exactly as the transcript draws them — each entry's lines, one
// blank line between two entries — for text that is printed once and then belongs to the
// terminal (the inline mode's scrollback). An entry the transcript holds rendered at its
// current version and width is taken from the cache; any other is rendered on its own, so
// printing never disturbs the cache of the entries still on screen.
func (r *Renderer) Lines(entries []*transcript.Entry, width int) []string {
	r.setWidth(max(1, width))
	var out []string
	for i, e := range entries {
		if e == nil {
			continue
		}
		v := r.tr.cached(e)
		if v == nil {
			v = &entryView{}
			v.render(e, r.tr.pen)
		}
		if i > 0 && len(out) > 0 {
			out = append(out, "")
		}
		out = rows.AppendRange(out, v.segs, 0, v.height())
	}
	return out
}

// cached returns e's view when a slot holds it rendered at e's version and the cache's width.
func (t *transcriptCache) cached(e *transcript.Entry) *entryView {
	for i := len(t.slots) - 1; i >= 0; i-- {
		s := t.slots[i]
		if s.entry == e {
			if s.view != nil && s.exact && s.version == e.Version() && s.width == t.width {
				return s.view
			}
			return nil
		}
	}
	return nil
}
