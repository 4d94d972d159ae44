package rows

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Esc starts every escape sequence.
const Esc = '\x1b'

// EscapeLen returns the length of the escape sequence at the start of s (s[0] is ESC) and
// whether it is an SGR. An unterminated sequence runs to the end of s; a malformed one ends
// before the byte that broke it, so that byte is treated as text.
func EscapeLen(s string) (n int, sgr bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[': // CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E
		onlyDigits := true
		for k := 2; k < len(s); k++ {
			c := s[k]
			switch {
			case c >= 0x40 && c <= 0x7e:
				return k + 1, c == 'm' && onlyDigits
			case c >= 0x30 && c <= 0x3f:
				onlyDigits = onlyDigits && (c <= '9' || c == ';' || c == ':')
			case c >= 0x20 && c <= 0x2f:
				onlyDigits = false
			default:
				return k, false
			}
		}
		return len(s), false
	case ']', 'P', '_', '^', 'X': // OSC, DCS, APC, PM, SOS: a string ended by BEL or ST (ESC \)
		for k := 2; k < len(s); k++ {
			if s[k] == '\a' {
				return k + 1, false
			}
			if s[k] == Esc {
				if k+1 < len(s) && s[k+1] == '\\' {
					return k + 2, false
				}
				return k, false
			}
		}
		return len(s), false
	default: // ESC, intermediates 0x20–0x2F, one final byte
		k := 1
		for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
			k++
		}
		if k < len(s) && s[k] >= 0x30 && s[k] <= 0x7e {
			k++
		}
		return k, false
	}
}

// TrimStyledEnd removes the trailing blanks of a styled line (a renderer may pad every line to the
// wrap width, each pad cell in its own SGR) and, when an SGR is still open after the last
// visible byte, closes it so no style bleeds into the next line.
func TrimStyledEnd(line string) string {
	cut, open, openAtCut := 0, false, false
	for i := 0; i < len(line); {
		if line[i] == Esc {
			n, sgr := EscapeLen(line[i:])
			if sgr {
				seq := line[i : i+n]
				open = seq != "\x1b[m" && seq != "\x1b[0m"
			}
			i += n
			continue
		}
		if line[i] != ' ' {
			cut, openAtCut = i+1, open
		}
		i++
	}
	if openAtCut {
		return line[:cut] + "\x1b[m"
	}
	return line[:cut]
}

// Ink is a lipgloss style compiled for one-line text: the SGR it opens and closes, found once
// by rendering a probe, so drawing a frame does not run lipgloss's full Render for every
// fragment. A style that is more than colours and attributes (padding, width …) keeps Render.
type Ink struct {
	pre, post  string
	style      lipgloss.Style
	UsesRender bool // use style.Render
}

func NewInk(st lipgloss.Style) Ink {
	const probe = "x"
	out := st.Render(probe)
	i := strings.Index(out, probe)
	if i < 0 || strings.Count(out, probe) != 1 || !ansiOnly(out[:i]) || !ansiOnly(out[i+len(probe):]) {
		return Ink{style: st, UsesRender: true}
	}
	return Ink{pre: out[:i], post: out[i+len(probe):]}
}

// Paint styles one line of text; an empty s stays empty (no stray SGR pair).
func (k Ink) Paint(s string) string {
	switch {
	case s == "":
		return s
	case k.UsesRender:
		return k.style.Render(s)
	}
	return k.pre + s + k.post
}

// ansiOnly reports whether s holds nothing but escape sequences.
func ansiOnly(s string) bool {
	for i := 0; i < len(s); {
		if s[i] != Esc {
			return false
		}
		n, _ := EscapeLen(s[i:])
		i += n
	}
	return true
}

// SGROf is the SGR a style opens, or "" when it sets nothing (or is more than colours and
// attributes, which markdown does not use).
func SGROf(st lipgloss.Style) string {
	k := NewInk(st)
	if k.UsesRender {
		return ""
	}
	return k.pre
}
