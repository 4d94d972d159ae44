package safe

// StreamView sanitises a text that grows by appends as a [Stream] does, but keeps no copy of
// the text while its sanitised text is the text itself (as a reply's text nearly always is).
// Its sanitised text is read only through View, given the text appended so far: it has no
// String, and Finish returns nothing, since neither could say what it does not hold.
//
// The zero StreamView is empty and ready to use. A StreamView must not be copied after first
// use.
type StreamView struct{ s Stream }

// NewStreamView returns an empty StreamView.
func NewStreamView() *StreamView { return &StreamView{} }

// Append feeds the next piece of the text, at the cost of [Stream.Append].
func (v *StreamView) Append(delta string) {
	v.s.view = true
	v.s.advance(delta, false)
}

// Finish ends the text as [Stream.Finish] does; read View after it.
func (v *StreamView) Finish() {
	v.s.view = true
	v.s.finish()
}

// View is the sanitised text of every byte appended so far except the held-back tail, given
// all, the text appended so far: while nothing was replaced it is a prefix of all, not a copy.
// The first replacement costs one copy of what came before it; from then on nothing of all is
// read.
func (v *StreamView) View(all string) string {
	s := &v.s
	if s.same == 0 {
		return s.out.String()
	}
	if s.out.Len() == 0 {
		return all[:s.same]
	}
	rest := s.out.String()
	s.out.Reset()
	s.out.Grow(s.same + len(rest))
	s.out.WriteString(all[:s.same])
	s.out.WriteString(rest)
	s.same = 0
	return s.out.String()
}
