package safe

import "strings"

// Stream sanitises text that grows by appends, such as a streamed reply, at O(len(delta)) per
// append instead of re-sanitising the whole accumulated text for every token.
//
// Invariant: after Append(d1), ..., Append(dn), with all = d1+...+dn, s.String() is a prefix of
// Text(all), and after [Stream.Finish], String() == Text(all). What is not yet in String() is
// the held-back tail, the last s.Pending() bytes of all (at most [maxHeld]): an unfinished UTF-8
// encoding, or the start of an emoji sequence that the next append may complete or break (a
// ZWJ after 👨 with nothing after it yet, the tags after 🏴). Everything else is decided, so
// String only ever grows, and a rune or sequence split across deltas is decided whole: "\xc2"
// then "\x9b" gives <U+009B>, "👨\u200d" then "👩" keeps the joiner, exactly as Text does.
//
// The zero Stream is empty and ready to use. A Stream must not be copied after first use.
//
// A Stream made by [NewStreamView] keeps no copy of the text while its sanitised text is the
// text itself (as a reply's text nearly always is): read it with [Stream.View].
type Stream struct {
	out strings.Builder // the sanitised text after the first same bytes
	// With view: the first same bytes of the text are their own sanitised text and are not in
	// out (out starts at the first byte that was replaced).
	view  bool
	same  int
	ctx   [maxContext]byte // raw bytes decided just before held: the sequence context
	nctx  int
	held  [maxHeld]byte // raw bytes appended but not decided
	nheld int
}

// maxHeld bounds Pending: a decision reads at most maxLookahead bytes past the held joiner,
// and the last of those may be an unfinished encoding.
const maxHeld = maxLookahead + 3

// NewStreamView returns an empty Stream that is read with View.
func NewStreamView() *Stream { return &Stream{view: true} }

// String returns the sanitised text of every byte appended so far except the held-back tail.
// It does not copy, and a returned string stays valid and unchanged after later appends. A
// Stream made by NewStreamView is read with View instead.
func (s *Stream) String() string { return s.out.String() }

// View is String for a Stream made by NewStreamView, given all, the text appended so far:
// while nothing was replaced it is a prefix of all, not a copy. The first replacement costs
// one copy of what came before it; from then on it is String.
func (s *Stream) View(all string) string {
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

// Append feeds the next piece of the text. Its cost is O(len(delta)), amortised over the
// growth of the output buffer: only the bounded context and held tail are read again.
func (s *Stream) Append(delta string) { s.advance(delta, false) }

// Finish ends the text: held-back bytes are decided as the end of the text, as Text decides
// them (an unfinished encoding becomes U+FFFD per byte). It returns String(). A later Append
// starts a new text after the flushed bytes. For a Stream made by NewStreamView, read View
// after it instead.
func (s *Stream) Finish() string {
	s.advance("", true)
	s.nctx = 0
	return s.out.String()
}

func (s *Stream) advance(delta string, final bool) {
	buf, from := delta, 0
	if s.nheld > 0 || needsContext(delta[:min(len(delta), maxContext)]) {
		buf = string(s.ctx[:s.nctx]) + string(s.held[:s.nheld]) + delta
		from = s.nctx
	}
	var stop int
	if s.view && s.out.Len() == 0 {
		i, undecided := scan(buf, from, textPass, final)
		s.same += i - from
		if stop = i; i < len(buf) && !undecided {
			stop = writeSafe(&s.out, buf, i, textPass, final)
		}
	} else {
		stop = writeSafe(&s.out, buf, from, textPass, final)
	}
	// The new context is the last maxContext decided bytes; buf holds the old context only
	// when from > 0.
	var c [2 * maxContext]byte
	n := 0
	if from == 0 {
		n = copy(c[:], s.ctx[:s.nctx])
	}
	n += copy(c[n:], buf[max(0, stop-maxContext):stop])
	s.nctx = copy(s.ctx[:], c[max(0, n-maxContext):n])
	s.nheld = copy(s.held[:], buf[stop:])
}

// needsContext reports whether head, the start of a delta, may hold a sequence joiner, whose
// decision reads the bytes before the delta. Every joiner's encoding starts with one of these.
func needsContext(head string) bool {
	for i := range len(head) {
		switch head[i] {
		case 0xc2, 0xd8, 0xe2, 0xef, 0xf3: // U+00AD; U+061C; U+200C–U+200F; U+FE0E, U+FE0F; U+E0020–U+E007F
			return true
		}
	}
	return false
}
