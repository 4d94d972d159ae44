package markdown

import "encoding/binary"

// A complete source line's measure is what it takes to count its display lines at any width
// without parsing it again: the widths of its text's words and spaces (for the word wrap),
// of its code line (for the hard wrap) and the highlighting state a code line leaves. Block
// state is width-independent but for a table's columns, so a line's measure is kept only when
// the line starts outside a table and no header is held: from such a state a line makes the
// same drawing calls at every width (docs/markdown.md, Another width). A measure is the items
// those calls ask for, in order: a text item for a line of text, a code item for a code line.
//
// Items are bytes: a head (the item's length plus one, as a uvarint; 0 for an unmeasured item,
// which is counted by drawing), then the body. A text item's body is its tokens. A word (the
// cells between two spaces) is a byte under 0x80: 0x40 when every cell is one column wide (so
// where a word too long for a line is cut is arithmetic), 0x20 when one space follows it, and
// its width in the rest, 31 meaning that a uvarint width and the flags byte again follow. A run
// of spaces not told by the word before it is a byte from 0x80, its length (up to 127) in the
// rest. A code item's body is two uvarints: the state the line leaves (0 for the zero state,
// else its index in the document's states plus one), and its cells' count, twice it plus one
// when every cell is one column wide.

const (
	tokRun       = 0x80
	tokUniform   = 0x40
	tokSpaceNext = 0x20
	tokWideWord  = 0x1f // the width is a uvarint after the byte
)

// token is a decoded text token: a run of spaces or a word.
type token struct {
	w              int
	space, uniform bool
}

// appendItem appends an item made of body: its head, then the body.
func appendItem(meas, body []byte) []byte {
	meas = binary.AppendUvarint(meas, uint64(len(body))+1)
	return append(meas, body...)
}

// appendUnmeasured appends an item that is counted by drawing.
func appendUnmeasured(meas []byte) []byte { return append(meas, 0) }

// appendWordsItem appends cells' item for wrapWords; scratch is reused for the body.
func appendWordsItem(meas []byte, cells []cell, scratch *[]byte) []byte {
	b := (*scratch)[:0]
	for i := 0; i < len(cells); {
		space := cells[i].s == " "
		w, uniform, j := 0, true, i
		for j < len(cells) && (cells[j].s == " ") == space {
			w += cells[j].w
			uniform = uniform && cells[j].w == 1
			j++
		}
		switch {
		case space && w == 1 && len(b) > 0 && b[len(b)-1]&tokRun == 0:
			b[len(b)-1] |= tokSpaceNext
		case space:
			for ; w > 0; w -= min(w, 127) {
				b = append(b, tokRun|byte(min(w, 127)))
			}
		default:
			t := byte(0)
			if uniform {
				t |= tokUniform
			}
			if w < tokWideWord {
				b = append(b, t|byte(w))
			} else {
				// The flags byte again last, so that the space after the word can mark it.
				b = append(binary.AppendUvarint(append(b, t|tokWideWord), uint64(w)), t|tokWideWord)
			}
		}
		i = j
	}
	*scratch = b
	return appendItem(meas, b)
}

// nextItem splits the first item off meas: its body, and false when it is unmeasured.
func nextItem(meas []byte) (item, rest []byte, ok bool) {
	n, k := binary.Uvarint(meas)
	switch {
	case k <= 0:
		return nil, nil, false
	case n == 0:
		return nil, meas[k:], false
	}
	end := k + int(n-1)
	return meas[k:end], meas[end:], true
}

// decodeWords reads a words item into tokens, reusing dst.
func decodeWords(item []byte, dst []token) []token {
	dst = dst[:0]
	for i := 0; i < len(item); {
		c := item[i]
		i++
		if c&tokRun != 0 {
			dst = append(dst, token{w: int(c &^ tokRun), space: true})
			continue
		}
		w := int(c & tokWideWord)
		if w == tokWideWord {
			v, k := binary.Uvarint(item[i:])
			w, i = int(v), i+k+1 // the uvarint, then the flags byte again
			c = item[i-1]
		}
		dst = append(dst, token{w: w, uniform: c&tokUniform != 0})
		if c&tokSpaceNext != 0 {
			dst = append(dst, token{w: 1, space: true})
		}
	}
	return dst
}

// wrapCount is len(wrapWords(cells, avail)) from cells' tokens; ok is false when the count
// needs the cells themselves (a word wider than a line whose cells are not all one column wide).
func wrapCount(toks []token, avail int) (rows int, ok bool) {
	avail = max(1, avail)
	j, off := 0, 0 // the line starts at cell off of token j
	for {
		rows++
		w, brk, first := 0, false, true // brk: a space after the line's first cell was passed
		for {
			if j == len(toks) {
				return rows, true
			}
			t := toks[j]
			if t.space {
				if w+t.w <= avail {
					brk = brk || !first || t.w > 1
					w, first = w+t.w, false
					j++
					continue
				}
				// The line breaks at one of these spaces; the next starts after them.
				for j < len(toks) && toks[j].space {
					j++
				}
				if j == len(toks) {
					return rows, true
				}
				break
			}
			rest := t.w - off
			if w+rest <= avail {
				w, first, off = w+rest, false, 0
				j++
				continue
			}
			if brk { // the line breaks before the word, the next starts with it
				off = 0
				break
			}
			if !t.uniform {
				return 0, false
			}
			off += avail - w // the word is cut where the line is full
			break
		}
	}
}

// appendCodeItem appends a code line's item for wrapHard: the state it leaves (kept in states
// when it is not the zero state) and its cells' count.
func appendCodeItem(meas []byte, cells []cell, after codeState, states *[]codeState) []byte {
	uniform := 1
	for _, c := range cells {
		if c.w != 1 {
			uniform = 0
		}
	}
	ref := 0
	if after != (codeState{}) {
		*states = append(*states, after)
		ref = len(*states)
	}
	var b [2 * binary.MaxVarintLen64]byte
	body := binary.AppendUvarint(b[:0], uint64(ref))
	body = binary.AppendUvarint(body, uint64(2*len(cells)+uniform))
	return appendItem(meas, body)
}

// codeCount reads a code item: the state the line leaves and, when ok, its rows at avail.
func codeCount(item []byte, avail int, states []codeState) (after codeState, rows int, ok bool) {
	ref, k := binary.Uvarint(item)
	if ref > 0 {
		after = states[ref-1]
	}
	n, _ := binary.Uvarint(item[k:])
	if n%2 == 0 {
		return after, 0, false
	}
	cells, avail := int(n/2), max(1, avail)
	return after, max(1, (cells+avail-1)/avail), true
}
