package sessions

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// decodeIndexLine reads one index line as writeIndex writes it: an object of Meta's fields in
// any order, with no space, each string free of escapes and valid UTF-8, each number a plain
// integer. ok is false for any other line, which json.Unmarshal then reads: where this accepts
// a line, json.Unmarshal gives the same Meta, only several times slower. shared is the line as
// a string: the Meta's strings are parts of it, not copies.
func decodeIndexLine(line []byte, shared string) (m Meta, ok bool) {
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return Meta{}, false
	}
	s := line[1 : len(line)-1]
	str := func(b []byte) string { // b is part of line
		at := len(line) - cap(b) + (cap(line) - len(line))
		return shared[at : at+len(b)]
	}
	for len(s) > 0 {
		key, rest, ok := plainString(s)
		if !ok || len(rest) == 0 || rest[0] != ':' {
			return Meta{}, false
		}
		rest = rest[1:]
		var text []byte
		var num int64
		var real float64
		switch string(key) {
		case "id", "title", "provider", "model", "parent", "created", "updated":
			text, rest, ok = plainString(rest)
		case "turns", "size", "tokens_in", "tokens_out":
			num, rest, ok = plainInt(rest)
		case "cost_usd":
			real, rest, ok = plainFloat(rest)
		case "oneshot":
			ok = bytes.HasPrefix(rest, []byte("true"))
			rest = rest[min(len(rest), 4):]
		default:
			return Meta{}, false
		}
		if !ok {
			return Meta{}, false
		}
		switch string(key) {
		case "id":
			m.ID = str(text)
		case "title":
			m.Title = str(text)
		case "provider":
			m.Provider = str(text)
		case "model":
			m.Model = str(text)
		case "parent":
			m.Parent = str(text)
		case "created":
			ok = m.Created.UnmarshalText(text) == nil
		case "updated":
			ok = m.Updated.UnmarshalText(text) == nil
		case "turns":
			m.Turns = int(num)
		case "size":
			m.Size = num
		case "tokens_in":
			m.TokensIn = int(num)
		case "tokens_out":
			m.TokensOut = int(num)
		case "cost_usd":
			m.CostUSD = real
		case "oneshot":
			m.OneShot = true
		}
		if !ok {
			return Meta{}, false
		}
		if len(rest) > 0 {
			if rest[0] != ',' || len(rest) == 1 {
				return Meta{}, false
			}
			rest = rest[1:]
		}
		s = rest
	}
	return m, true
}

// plainString reads a JSON string at the start of s that needs no unescaping: its contents
// and what follows it.
func plainString(s []byte) (text, rest []byte, ok bool) {
	if len(s) == 0 || s[0] != '"' {
		return nil, nil, false
	}
	end := bytes.IndexByte(s[1:], '"')
	if end < 0 {
		return nil, nil, false
	}
	text = s[1 : 1+end]
	for _, c := range text {
		if c < 0x20 || c == '\\' {
			return nil, nil, false
		}
	}
	if !utf8.Valid(text) {
		return nil, nil, false
	}
	return text, s[2+end:], true
}

// plainInt reads a JSON integer at the start of s (no fraction, no exponent, no leading zero)
// that fits an int64.
func plainInt(s []byte) (n int64, rest []byte, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == digits || s[digits] == '0' && i > digits+1 {
		return 0, nil, false
	}
	if i < len(s) && (s[i] == '.' || s[i] == 'e' || s[i] == 'E') {
		return 0, nil, false
	}
	n, err := strconv.ParseInt(string(s[:i]), 10, 64)
	if err != nil || strconv.IntSize == 32 && n != int64(int(n)) {
		return 0, nil, false
	}
	return n, s[i:], true
}

// plainFloat reads a JSON number at the start of s, as encoding/json writes a float64 (a
// fraction, an exponent or neither).
func plainFloat(s []byte) (f float64, rest []byte, ok bool) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '-' || s[i] == '+' || s[i] == '.' || s[i] == 'e' || s[i] == 'E') {
		i++
	}
	if i == 0 || !json.Valid(s[:i]) {
		return 0, nil, false
	}
	f, err := strconv.ParseFloat(string(s[:i]), 64)
	if err != nil {
		return 0, nil, false
	}
	return f, s[i:], true
}
