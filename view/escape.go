package view

import (
	"strconv"
	"strings"

	"github.com/phasechat/phasechat/view/safe"
)

const esc = '\x1b'

// escapes is which escape sequences styled text keeps when it is cleaned.
type escapes uint8

const (
	keepNone       escapes = iota // no escape sequence of any kind
	keepAttributes                // SGR without colour: bold, faint, italic, underline, reverse …
	keepSGR                       // every SGR
)

// cleanStyled makes styled text from a renderer we do not control (the composer) safe
// to draw: every escape sequence is removed except SGR (ESC [ params m) as keep allows, and the
// text between sequences passes safe.Text, so nothing a renderer decoded (an HTML entity, a
// hyperlink) can reach the terminal as a control. With keepNone the result holds no escape
// sequence at all; with keepAttributes no SGR in it sets a colour. Cost O(len(s)); no
// allocation when s is already clean.
func cleanStyled(s string, keep escapes) string {
	first := strings.IndexByte(s, esc)
	if first < 0 {
		return safe.Text(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	i := 0
	for i < len(s) {
		j := strings.IndexByte(s[i:], esc)
		if j < 0 {
			b.WriteString(safe.Text(s[i:]))
			break
		}
		b.WriteString(safe.Text(s[i : i+j]))
		i += j
		n, sgr := escapeLen(s[i:])
		switch {
		case !sgr || keep == keepNone:
		case keep == keepAttributes:
			writeAttributes(&b, s[i+2:i+n-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// writeAttributes writes the SGR of params (digits, ';' and ':') without its colour parameters:
// 30–39, 40–49, 90–97, 100–107 and the underline colour 58/59, with the arguments that 38, 48
// and 58 take (5;N or 2;R;G;B, or the same joined by ':'). A sequence that was only colour is
// left out; a reset (no parameter, or 0) is kept.
func writeAttributes(b *strings.Builder, params string) {
	if params == "" {
		b.WriteString("\x1b[m")
		return
	}
	fields := strings.Split(params, ";")
	kept := make([]string, 0, len(fields))
	for k := 0; k < len(fields); k++ {
		f := fields[k]
		head, _, joined := strings.Cut(f, ":")
		code, err := strconv.Atoi(head)
		if head == "" {
			code, err = 0, nil // an empty parameter means 0
		}
		if err != nil {
			continue
		}
		switch {
		case code == 38 || code == 48 || code == 58:
			if !joined && k+1 < len(fields) { // the arguments follow as parameters of their own
				switch fields[k+1] {
				case "5":
					k += 2
				case "2":
					k += 4
				default:
					k++
				}
			}
		case code >= 30 && code <= 49, code == 59, code >= 90 && code <= 97, code >= 100 && code <= 107:
		default:
			kept = append(kept, f)
		}
	}
	if len(kept) > 0 {
		b.WriteString("\x1b[")
		b.WriteString(strings.Join(kept, ";"))
		b.WriteByte('m')
	}
}

// escapeLen returns the length of the escape sequence at the start of s (s[0] is ESC) and
// whether it is an SGR. An unterminated sequence runs to the end of s; a malformed one ends
// before the byte that broke it, so that byte is treated as text.
func escapeLen(s string) (n int, sgr bool) {
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
			if s[k] == esc {
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

// trimStyledEnd removes the trailing blanks of a styled line (a renderer may pad every line to the
// wrap width, each pad cell in its own SGR) and, when an SGR is still open after the last
// visible byte, closes it so no style bleeds into the next line.
func trimStyledEnd(line string) string {
	cut, open, openAtCut := 0, false, false
	for i := 0; i < len(line); {
		if line[i] == esc {
			n, sgr := escapeLen(line[i:])
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

// charRef decodes a numeric character reference at the start of s ("&#" digits ";" or "&#x"
// hex ";", as CommonMark allows: 1–7 decimal or 1–6 hex digits), returning its code point and
// length, or n == 0 when s does not start with one.
func charRef(s string) (r rune, n int) {
	k, base, maxDigits := 2, rune(10), 7
	if k < len(s) && (s[k] == 'x' || s[k] == 'X') {
		k, base, maxDigits = 3, 16, 6
	}
	start := k
	for k < len(s) && k-start < maxDigits {
		d := hexVal(s[k])
		if d < 0 || d >= base {
			break
		}
		r = r*base + d
		k++
	}
	if k == start || k >= len(s) || s[k] != ';' {
		return 0, 0
	}
	return r, k + 1
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}
