package sessionlog

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/phasechat/phasechat/stream/wire"
)

// readParts reads a message written as its parts (see loggedMessage) in one pass, as
// Record.UnmarshalJSON reads it: an object whose members are role, parts, reasoning_field,
// tool_call_id and name, each part an object of string members. ok is false for anything
// else (another member, a value of another type, a key in other case, white space between
// tokens), which is left to encoding/json.
func readParts(b []byte) (m wire.Message, ok bool) {
	r := jsonReader{b: b}
	first := true
	for r.member(&first) {
		switch key := r.key(); key {
		case "role":
			m.Role, ok = r.str()
		case "reasoning_field":
			m.ReasoningField, ok = r.str()
		case "tool_call_id":
			m.ToolCallID, ok = r.str()
		case "name":
			m.Name, ok = r.str()
		case "parts":
			m.Parts, ok = r.parts()
		default:
			ok = false
		}
		if !ok {
			return wire.Message{}, false
		}
	}
	if r.bad || r.at != len(r.b) {
		return wire.Message{}, false
	}
	return m, true
}

// jsonReader reads the narrow JSON the writer writes: objects, arrays of objects and strings,
// no white space between tokens. Any surprise sets bad.
type jsonReader struct {
	b   []byte
	at  int
	bad bool
}

// next consumes c, or sets bad.
func (r *jsonReader) next(c byte) bool {
	if r.bad || r.at >= len(r.b) || r.b[r.at] != c {
		r.bad = true
		return false
	}
	r.at++
	return true
}

// member moves to the next member of an object (its "{" when *first), reporting false at its
// end ("}") or on a surprise.
func (r *jsonReader) member(first *bool) bool {
	if *first {
		*first = false
		if !r.next('{') {
			return false
		}
		if r.at < len(r.b) && r.b[r.at] == '}' {
			r.at++
			return false
		}
		return true
	}
	if r.at < len(r.b) && r.b[r.at] == '}' {
		r.at++
		return false
	}
	return r.next(',')
}

// key reads a member's key and its colon; "" on a surprise.
func (r *jsonReader) key() string {
	k, ok := r.str()
	if !ok || !r.next(':') {
		r.bad = true
		return ""
	}
	return k
}

// parts reads an array of parts as Record.UnmarshalJSON adds them.
func (r *jsonReader) parts() ([]wire.Part, bool) {
	if !r.next('[') {
		return nil, false
	}
	m := wire.Message{Parts: []wire.Part{}}
	calls := 0
	for more := r.at < len(r.b) && r.b[r.at] != ']'; more; {
		var p loggedPart
		first := true
		for r.member(&first) {
			var dst *string
			switch r.key() {
			case "type":
				dst = &p.Type
			case "text":
				dst = &p.Text
			case "id":
				dst = &p.ID
			case "name":
				dst = &p.Name
			case "arguments":
				dst = &p.Arguments
			default:
				return nil, false
			}
			var ok bool
			if *dst, ok = r.str(); !ok {
				return nil, false
			}
		}
		calls = addPart(&m, calls, p)
		if more = r.at < len(r.b) && r.b[r.at] == ','; more {
			r.at++
		}
	}
	if !r.next(']') || r.bad {
		return nil, false
	}
	if len(m.Parts) == 0 {
		return nil, true
	}
	return m.Parts, true
}

// str reads a JSON string as encoding/json decodes it: escapes, surrogate pairs, and each byte
// of invalid UTF-8 (and each lone surrogate) as U+FFFD; a control character is a surprise.
func (r *jsonReader) str() (string, bool) {
	if !r.next('"') {
		return "", false
	}
	start := r.at
	for i := start; i < len(r.b); i++ { // the common case: nothing to decode
		switch c := r.b[i]; {
		case c == '"':
			r.at = i + 1
			return string(r.b[start:i]), true
		case c == '\\' || c < ' ' || c >= utf8.RuneSelf:
			return r.decode(start)
		}
	}
	r.bad = true
	return "", false
}

// skipStr passes over a string as str would read it, without decoding it, and returns it as
// it is written, quotes included: a reader of it (str) gives what str would have.
func (r *jsonReader) skipStr() ([]byte, bool) {
	from := r.at
	if !r.next('"') {
		return nil, false
	}
	var scratch []byte
	for i := r.at; i < len(r.b); {
		switch c := r.b[i]; {
		case c == '"':
			r.at = i + 1
			return r.b[from:r.at], true
		case c < ' ':
			r.bad = true
			return nil, false
		case c != '\\':
			i++
		default:
			n, ok := r.escape(i, &scratch)
			if !ok {
				r.bad = true
				return nil, false
			}
			scratch = scratch[:0]
			i += n
		}
	}
	r.bad = true
	return nil, false
}

// writtenString is the string a JSON string that skipStr passed over holds.
func writtenString(b []byte) string {
	r := jsonReader{b: b}
	s, _ := r.str()
	return s
}

// decode reads a string from start, after its opening quote, that has escapes or non-ASCII.
// Runs of bytes that need no decoding are copied whole.
func (r *jsonReader) decode(start int) (string, bool) {
	out := make([]byte, 0, len(r.b)-start)
	for i := start; i < len(r.b); {
		j := i
		for j < len(r.b) && r.b[j] != '"' && r.b[j] != '\\' && r.b[j] >= ' ' {
			j++
		}
		if run := r.b[i:j]; utf8.Valid(run) {
			out = append(out, run...)
		} else {
			for k := 0; k < len(run); {
				rr, size := utf8.DecodeRune(run[k:])
				out = utf8.AppendRune(out, rr) // RuneError for an invalid byte, as json does
				k += size
			}
		}
		if i = j; i == len(r.b) {
			break
		}
		switch c := r.b[i]; {
		case c == '"':
			r.at = i + 1
			return string(out), true
		case c < ' ':
			r.bad = true
			return "", false
		default:
			n, ok := r.escape(i, &out)
			if !ok {
				r.bad = true
				return "", false
			}
			i += n
		}
	}
	r.bad = true
	return "", false
}

// escape decodes the escape at i into out, returning its length.
func (r *jsonReader) escape(i int, out *[]byte) (int, bool) {
	if i+1 >= len(r.b) {
		return 0, false
	}
	switch c := r.b[i+1]; c {
	case '"', '\\', '/':
		*out = append(*out, c)
	case 'b':
		*out = append(*out, '\b')
	case 'f':
		*out = append(*out, '\f')
	case 'n':
		*out = append(*out, '\n')
	case 'r':
		*out = append(*out, '\r')
	case 't':
		*out = append(*out, '\t')
	case 'u':
		rr := hex4(r.b[i:])
		if rr < 0 {
			return 0, false
		}
		if utf16.IsSurrogate(rr) {
			if dec := utf16.DecodeRune(rr, hex4(r.b[i+6:])); dec != unicode.ReplacementChar {
				*out = utf8.AppendRune(*out, dec)
				return 12, true
			}
			rr = unicode.ReplacementChar
		}
		*out = utf8.AppendRune(*out, rr)
		return 6, true
	default:
		return 0, false
	}
	return 2, true
}

// hex4 is the rune of a \uXXXX escape at the start of b, or -1.
func hex4(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	var rr rune
	for _, c := range b[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		rr = rr*16 + rune(c)
	}
	return rr
}
