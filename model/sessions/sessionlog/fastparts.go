package sessionlog

import (
	"github.com/phasechat/phasechat/internal/jsonstr"
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
	end, text, ok := jsonstr.ScanBytes(r.b, r.at)
	if !ok {
		r.bad = true
		return "", false
	}
	r.at = end
	return text, true
}

// skipStr passes over a string as str would read it, without decoding it, and returns it as
// it is written, quotes included: a reader of it (str) gives what str would have.
func (r *jsonReader) skipStr() ([]byte, bool) {
	from := r.at
	if !r.next('"') {
		return nil, false
	}
	end, ok := jsonstr.SkipBytes(r.b, r.at)
	if !ok {
		r.bad = true
		return nil, false
	}
	r.at = end
	return r.b[from:end], true
}

// writtenString is the string a JSON string that skipStr passed over holds.
func writtenString(b []byte) string {
	r := jsonReader{b: b}
	s, _ := r.str()
	return s
}
