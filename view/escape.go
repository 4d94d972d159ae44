package view

import (
	"strconv"
	"strings"

	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

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
	first := strings.IndexByte(s, rows.Esc)
	if first < 0 {
		return safe.Text(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	i := 0
	for i < len(s) {
		j := strings.IndexByte(s[i:], rows.Esc)
		if j < 0 {
			b.WriteString(safe.Text(s[i:]))
			break
		}
		b.WriteString(safe.Text(s[i : i+j]))
		i += j
		n, sgr := rows.EscapeLen(s[i:])
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
