package safe

import (
	"strings"
	"unicode/utf8"
)

// Plain returns s for a file or a pipe: every character of the text exactly as it is, without
// what could drive a terminal that later shows it, and how many controls (sequences, control
// characters, invalid bytes) it removed or replaced. Removed are whole escape sequences (CSI
// "ESC [" … final byte, OSC "ESC ]", DCS, SOS, PM and APC strings up to their BEL or string
// terminator, and every other "ESC" intermediate… final form), C0 controls other than '\n' and
// '\t', DEL, and C1 controls (the encoded CSI U+009B and string introducers U+0090, U+0098,
// U+009D–U+009F start a sequence as their ESC forms do). Each byte that does not begin a valid
// UTF-8 encoding becomes U+FFFD (a raw 0x9B is a CSI to an 8-bit terminal). Bidi, zero-width
// and other invisible characters are kept: they are text, and reorder nothing in a file.
// A sequence left open at the end of s is removed to the end, as a terminal would swallow it.
//
// Plain returns s itself, without allocating, when s holds none of these; it is idempotent.
func Plain(s string) (string, int) {
	if isPlain(s) {
		return s, 0
	}
	var p PlainStream
	p.Append(s)
	return p.Finish()
}

// PlainStream is [Plain] for text that grows by appends: after Append(d1), …, Append(dn),
// String() is a prefix of Plain(d1+…+dn), and after Finish it equals it. It holds back only an
// unfinished UTF-8 encoding; a sequence split across appends is removed whole. The zero
// PlainStream is ready to use.
type PlainStream struct {
	out     strings.Builder
	state   plainState
	held    [utf8.UTFMax]byte
	nheld   int
	removed int
}

type plainState uint8

const (
	inText   plainState = iota
	afterEsc            // ESC seen
	inEscape            // ESC intermediates, awaiting the final byte
	inCSI               // parameters and intermediates, awaiting the final byte
	inString            // OSC, DCS, SOS, PM or APC body, awaiting BEL or ST
	inStrEsc            // ESC inside a string: "\" ends it
)

// String returns the text decided so far.
func (p *PlainStream) String() string { return p.out.String() }

// Take returns String() and forgets it, as [Stream.Take] does.
func (p *PlainStream) Take() string {
	t := p.out.String()
	p.out.Reset()
	return t
}

// Append feeds the next piece of the text.
func (p *PlainStream) Append(delta string) {
	if p.nheld > 0 {
		delta = string(p.held[:p.nheld]) + delta
		p.nheld = 0
	}
	p.feed(delta, false)
}

// Finish ends the text: a held unfinished encoding becomes U+FFFD per byte and an open
// sequence is dropped. It returns the whole plain text and how many controls were removed.
func (p *PlainStream) Finish() (string, int) {
	if p.nheld > 0 {
		held := string(p.held[:p.nheld])
		p.nheld = 0
		p.feed(held, true)
	}
	p.state = inText
	return p.out.String(), p.removed
}

// isPlain reports whether Plain has nothing to remove from s.
func isPlain(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r <= 0x9f {
			return false
		}
		i += size
	}
	return true
}

// feed processes s and returns how many of its bytes it consumed; the rest (an unfinished
// encoding at the end, when not final) is held.
func (p *PlainStream) feed(s string, final bool) int {
	clean := 0 // s[clean:i] is text not yet written
	i := 0
	flush := func(to int) {
		if clean < to {
			p.out.WriteString(s[clean:to])
		}
	}
	for i < len(s) {
		c := s[i]
		if p.state != inText {
			i += p.inSequence(s[i:], final)
			if p.nheld > 0 {
				return i
			}
			clean = i
			continue
		}
		switch {
		case c >= 0x20 && c < 0x7f || c == '\n' || c == '\t':
			i++
			continue
		case c < 0x80:
			flush(i)
			p.removed++
			if c == 0x1b {
				p.state = afterEsc
			}
			i++
			clean = i
			continue
		}
		if !final && !utf8.FullRuneInString(s[i:]) {
			flush(i)
			p.nheld = copy(p.held[:], s[i:])
			return len(s)
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			flush(i)
			p.out.WriteRune(utf8.RuneError)
			p.removed++
		case r >= 0x80 && r <= 0x9f:
			flush(i)
			p.removed++
			p.state = c1Start(r)
		default:
			i += size
			continue
		}
		i += size
		clean = i
	}
	flush(i)
	return i
}

// c1Start is the state after the C1 control r: CSI and the string introducers open a
// sequence, the others stand alone.
func c1Start(r rune) plainState {
	switch r {
	case 0x9b:
		return inCSI
	case 0x90, 0x98, 0x9d, 0x9e, 0x9f:
		return inString
	}
	return inText
}

// inSequence consumes bytes of an open sequence from s and returns how many; it stops when the
// sequence ends (the state is then inText) or s does.
func (p *PlainStream) inSequence(s string, final bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch p.state {
		case afterEsc:
			switch {
			case c == '[':
				p.state = inCSI
			case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
				p.state = inString
			case c >= 0x20 && c <= 0x2f:
				p.state = inEscape
			case c >= 0x30 && c <= 0x7e:
				p.state = inText
			default: // not an escape after all: the byte is read as text again
				p.state = inText
				return i
			}
		case inEscape:
			switch {
			case c >= 0x20 && c <= 0x2f:
			case c >= 0x30 && c <= 0x7e:
				p.state = inText
			default:
				p.state = inText
				return i
			}
		case inCSI:
			switch {
			case c >= 0x20 && c <= 0x3f:
			case c >= 0x40 && c <= 0x7e:
				p.state = inText
			default: // a CSI broken off: what follows is text (a control in it is removed there)
				p.state = inText
				return i
			}
		case inString:
			switch {
			case c == 0x07:
				p.state = inText
			case c == 0x1b:
				p.state = inStrEsc
			case c == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // ST U+009C
				p.state = inText
				return i + 2
			case c == 0xc2 && i+1 == len(s) && !final:
				p.nheld = copy(p.held[:], s[i:])
				return len(s)
			}
		case inStrEsc:
			if c == '\\' {
				p.state = inText
			} else if c != 0x1b {
				p.state = inString
			}
		}
		if p.state == inText {
			return i + 1
		}
	}
	return len(s)
}
