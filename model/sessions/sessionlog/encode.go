package sessionlog

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/phasechat/phasechat/stream/wire"
)

// A message record is encoded here rather than by encoding/json, whose pooled buffers would
// keep a copy of the largest message written (twice: the line and the message in it) until
// the garbage collector has run twice: a long reply would be held three times over. The
// bytes are the ones encoding/json writes for the same record (see recordLine).

// appendRecord appends rec's line, without its line break, to dst.
func appendRecord(dst []byte, rec Record) ([]byte, error) {
	m := rec.Message
	if m == nil {
		b, err := json.Marshal(recordLine{Type: rec.Type, Time: rec.Time, Session: rec.Session, Usage: rec.Usage, Live: rec.Live,
			Compaction: loggedCompactionOf(rec.Compaction)})
		return append(dst, b...), err
	}
	var err error
	dst = appendJSONString(append(dst, `{"type":`...), rec.Type)
	dst = appendMember(dst, "time", rec.Time, rec.Time != nil, &err)
	dst = appendMember(dst, "session", rec.Session, rec.Session != nil, &err)
	end, call := endRecordOf(m.End), callRecordOf(m.Ending)
	dst = appendMember(dst, "end", end, end != nil, &err)
	dst = appendMember(dst, "call", call, call != nil, &err)
	dst = appendJSONString(append(dst, `,"message":{"role":`...), m.Role)
	dst = append(dst, `,"parts":[`...)
	for i, p := range m.Parts {
		if i > 0 {
			dst = append(dst, ',')
		}
		switch p := p.(type) {
		case wire.Text:
			dst = appendStringMember(append(dst, `{"type":"text"`...), "text", p.Text)
		case wire.Reasoning:
			dst = appendStringMember(append(dst, `{"type":"reasoning"`...), "text", p.Text)
		case wire.ToolCall:
			dst = append(dst, `{"type":"call"`...)
			dst = appendStringMember(dst, "id", p.ID)
			dst = appendStringMember(dst, "name", p.Name)
			dst = appendStringMember(dst, "arguments", p.Arguments)
			dst = appendMember(dst, "extra_content", p.ExtraContent, len(p.ExtraContent) > 0, &err)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	dst = appendStringMember(dst, "reasoning_field", m.ReasoningField)
	dst = appendStringMember(dst, "tool_call_id", m.ToolCallID)
	dst = appendStringMember(dst, "name", m.Name)
	dst = appendMember(dst, "native_reasoning", m.Native, m.Native != nil, &err)
	dst = appendMember(dst, "attachments", m.Attachments, len(m.Attachments) > 0, &err)
	dst = append(dst, '}')
	dst = appendMember(dst, "usage", rec.Usage, rec.Usage != nil, &err)
	dst = appendMember(dst, "live", rec.Live, rec.Live != nil, &err)
	return append(dst, '}'), err
}

// appendMember appends `,"name":` and v as encoding/json writes it, when present; a failure
// is kept in err.
func appendMember(dst []byte, name string, v any, present bool, err *error) []byte {
	if !present {
		return dst
	}
	b, e := json.Marshal(v)
	if e != nil && *err == nil {
		*err = e
	}
	return append(append(append(append(dst, ',', '"'), name...), '"', ':'), b...)
}

// appendStringMember appends `,"name":` and s, unless s is empty.
func appendStringMember(dst []byte, name, s string) []byte {
	if s == "" {
		return dst
	}
	return appendJSONString(append(append(append(dst, ',', '"'), name...), '"', ':'), s)
}

// appendJSONString appends s as a JSON string as encoding/json writes it: <, > and & escaped
// for HTML, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}
