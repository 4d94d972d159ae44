package safe

import (
	"strings"
	"unicode/utf8"
)

// Stream sanitises text that grows by appends, such as a streamed reply, at O(len(delta)) per
// append instead of re-sanitising the whole accumulated text for every token.
//
// Invariant: after Append(d1), ..., Append(dn), with all = d1+...+dn,
//
//	s.String() + Text(held) == Text(all)
//
// where held is the last s.n bytes of all (0 to 3 of them): a valid but unfinished
// UTF-8 encoding that the next append may complete. Everything else is decided, so String only
// ever grows, and a rune split across deltas is decoded whole: "\xc2" then "\x9b" gives
// <U+009B>, exactly as Text("\xc2\x9b") does. After [Stream.Finish], String() == Text(all).
//
// The zero Stream is empty and ready to use. A Stream must not be copied after first use.
type Stream struct {
	out  strings.Builder
	held [utf8.UTFMax - 1]byte
	n    int // bytes in held
}

// String returns the sanitised text of every byte appended so far except the held-back tail.
// It does not copy, and a returned string stays valid and unchanged after later appends.
func (s *Stream) String() string { return s.out.String() }

// Append feeds the next piece of the text. Its cost is O(len(delta)), amortised over the
// growth of the output buffer.
func (s *Stream) Append(delta string) {
	if s.n > 0 {
		delta = s.resolveHeld(delta)
		if s.n > 0 {
			return // delta was too short to finish the held encoding; all of it is now held
		}
	}
	cut := completePrefix(delta)
	writeSafe(&s.out, delta[:cut], textPass)
	s.n = copy(s.held[:], delta[cut:])
}

// Finish ends the text: held-back bytes can no longer be completed and become U+FFFD, as Text
// makes them. It returns String(). A later Append starts after the flushed bytes.
func (s *Stream) Finish() string {
	writeSafe(&s.out, string(s.held[:s.n]), textPass)
	s.n = 0
	return s.out.String()
}

// resolveHeld decodes the held bytes followed by the head of delta, writes every rune that
// starts in the held bytes, and returns the rest of delta. If delta is too short to decide the
// held encoding, all of it joins the held bytes and "" is returned.
func (s *Stream) resolveHeld(delta string) string {
	var buf [2 * utf8.UTFMax]byte
	held := s.n
	k := copy(buf[:], s.held[:held])
	k += copy(buf[k:], delta)
	i := 0
	for i < held {
		// With at least UTFMax bytes present FullRune is true, so a false here means all of
		// delta is in buf and the remaining k-i < UTFMax bytes fit in s.held.
		if !utf8.FullRune(buf[i:k]) {
			s.n = copy(s.held[:], buf[i:k])
			return ""
		}
		r, size := utf8.DecodeRune(buf[i:k])
		writeRune(&s.out, r, size, textPass)
		i += size
	}
	s.n = 0
	return delta[i-held:]
}

// completePrefix returns the length of s without a trailing unfinished UTF-8 encoding. Only the
// last rune-start byte among the final UTFMax-1 can begin one: every earlier decode step is
// already decided by the bytes present, since a step never runs past the next rune-start byte.
func completePrefix(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-(utf8.UTFMax-1); i-- {
		if utf8.RuneStart(s[i]) {
			if utf8.FullRuneInString(s[i:]) {
				return len(s)
			}
			return i
		}
	}
	return len(s)
}

// writeRune writes one decoded rune (an invalid byte is RuneError with size 1) or its stand-in.
func writeRune(b *strings.Builder, r rune, size int, pass *[utf8.RuneSelf]bool) {
	switch {
	case r < utf8.RuneSelf && pass[r]:
		b.WriteByte(byte(r))
	case r >= utf8.RuneSelf && classify(r, size) == safeRune:
		b.WriteRune(r) // valid UTF-8 is canonical, so this re-encodes the input bytes
	default:
		writeStandIn(b, r, size)
	}
}
