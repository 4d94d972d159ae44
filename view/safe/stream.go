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
// String only ever grows (but for what Take takes), and a rune or sequence split across deltas
// is decided whole: "\xc2" then "\x9b" gives <U+009B>, "👨\u200d" then "👩" keeps the joiner,
// exactly as Text does.
//
// The zero Stream is empty and ready to use. A Stream must not be copied after first use.
type Stream struct {
	out strings.Builder // the sanitised text after the first same bytes
	// For a StreamView: the first same bytes of the text are their own sanitised text and are
	// not in out (out starts at the first byte that was replaced).
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

// String returns the sanitised text of every byte appended so far except the held-back tail.
// It does not copy, and a returned string stays valid and unchanged after later appends.
func (s *Stream) String() string { return s.out.String() }

// Take returns String() and forgets it: String and Finish then hold only what is decided after
// it, and the invariant holds for everything taken followed by String(). A caller that writes
// the text out as it is decided keeps none of it.
func (s *Stream) Take() string {
	t := s.out.String()
	s.out.Reset()
	return t
}

// Append feeds the next piece of the text. Its cost is O(len(delta)), amortised over the
// growth of the output buffer: only the bounded context and held tail are read again.
func (s *Stream) Append(delta string) { s.advance(delta, false) }

// Finish ends the text: held-back bytes are decided as the end of the text, as Text decides
// them (an unfinished encoding becomes U+FFFD per byte). It returns String(). A later Append
// starts a new text after the flushed bytes.
func (s *Stream) Finish() string {
	s.finish()
	return s.out.String()
}

func (s *Stream) finish() {
	s.advance("", true)
	s.nctx = 0
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
