package sessionlog

import (
	"bytes"
	"strings"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// readRecord reads a message, usage or live record in the form Writer writes it,
// {"type":"message"[,"time":"…"],"message":{…}} (see readParts),
// {"type":"usage"[,"time":"…"],"usage":{…}} or {"type":"live"[,"time":"…"],"live":{…}},
// or a message record in the form versions before parts wrote it, {"type":"message"[,"time":"…"][,"text_after":[…]],"message":{…}}, in one
// pass over the line; false leaves any other line (and any message DecodeMessage leaves to
// encoding/json, and any usage not written as Writer writes it) to json.Unmarshal, which
// reads it as it always did.
func readRecord(line []byte, rec *Record) bool {
	if rest, ok := bytes.CutPrefix(line, []byte(`{"type":"message",`)); ok {
		return readMessageRecord(rest, rec)
	}
	if rest, ok := bytes.CutPrefix(line, []byte(`{"type":"usage",`)); ok {
		return readUsageRecord(rest, rec)
	}
	if rest, ok := bytes.CutPrefix(line, []byte(`{"type":"live",`)); ok {
		return readLiveRecord(rest, rec)
	}
	return false
}

// readLiveRecord reads what follows {"type":"live", in a live record as Writer writes it:
// "live":{…}} whose members are what, text, id, name and args (strings) and allow (true).
// Any other member (a call's or a request's end) is left to encoding/json.
func readLiveRecord(rest []byte, rec *Record) bool {
	at, rest, ok := readTime(rest)
	if !ok {
		return false
	}
	body, ok := bytes.CutPrefix(rest, []byte(`"live":`))
	body = bytes.TrimRight(body, " \t\r\n")
	if !ok || len(body) == 0 || body[len(body)-1] != '}' {
		return false
	}
	r := jsonReader{b: body[:len(body)-1]}
	var l liveRecord
	first := true
	for r.member(&first) {
		var dst *string
		switch r.key() {
		case "what":
			var what string
			if what, ok = r.str(); !ok {
				return false
			}
			l.What = chat.LiveWhat(what)
			continue
		case "text":
			if l.What.Streamed() {
				// Read only if its request lands: most are superseded by the final reply.
				if l.raw, ok = r.skipStr(); !ok {
					return false
				}
				continue
			}
			dst = &l.Text
		case "id":
			dst = &l.ID
		case "name":
			dst = &l.Name
		case "args":
			dst = &l.Args
		case "allow":
			if !bytes.HasPrefix(r.b[r.at:], []byte("true")) {
				return false
			}
			l.Allow, r.at = true, r.at+len("true")
			continue
		default:
			return false
		}
		if *dst, ok = r.str(); !ok {
			return false
		}
	}
	if r.bad || r.at != len(r.b) {
		return false
	}
	*rec = Record{Type: "live", Time: at, Live: &l}
	return true
}

// readTime reads the optional "time":"…", member that follows a record's type.
func readTime(rest []byte) (at *time.Time, after []byte, ok bool) {
	r, ok := bytes.CutPrefix(rest, []byte(`"time":"`))
	if !ok {
		return nil, rest, true
	}
	end := bytes.IndexByte(r, '"')
	if end < 0 || bytes.IndexByte(r[:end], '\\') >= 0 {
		return nil, nil, false
	}
	quoted := rest[len(`"time":`) : len(`"time":"`)+end+1]
	at = new(time.Time)
	if at.UnmarshalJSON(quoted) != nil {
		return nil, nil, false
	}
	after, ok = bytes.CutPrefix(r[end+1:], []byte(","))
	return at, after, ok
}

// readMessageRecord reads what follows {"type":"message", in a message record.
func readMessageRecord(rest []byte, rec *Record) bool {
	at, rest, ok := readTime(rest)
	if !ok {
		return false
	}
	places, rest, ok := readTextAfter(rest)
	if !ok {
		return false
	}
	body, ok := bytes.CutPrefix(rest, []byte(`"message":`))
	body = bytes.TrimRight(body, " \t\r\n")
	if !ok || len(body) == 0 || body[len(body)-1] != '}' {
		return false
	}
	body = body[:len(body)-1]
	var m wire.Message
	if hasPartsKey(body) { // written as its parts
		if m, ok = readParts(body); !ok {
			return false
		}
	} else { // written before parts, in the API's shape
		if m, ok = wire.DecodeMessage(body); !ok {
			return false
		}
		m.Parts = oldOrder(m, places)
		m.End, m.Ending = ends(m, nil, nil, "", true)
	}
	*rec = Record{Type: "message", Time: at, Message: &m}
	return true
}

// hasPartsKey reports whether the JSON b has a member named parts at any depth, in any case
// encoding/json would match. Only a key can end in `":`: a quote inside a string is escaped.
func hasPartsKey(b []byte) bool {
	for i := bytes.Index(b, []byte(`":`)); i >= 0; {
		if j := bytes.LastIndexByte(b[max(0, i-8):i], '"'); j >= 0 && strings.EqualFold(string(b[max(0, i-8)+j+1:i]), "parts") {
			return true
		}
		next := bytes.Index(b[i+2:], []byte(`":`))
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return false
}

// readTextAfter reads the optional "text_after":[N,…], member that follows a record's time,
// N plain digits; ok is false for any other list, which is left to json.Unmarshal.
func readTextAfter(rest []byte) (places textAfter, after []byte, ok bool) {
	r, ok := bytes.CutPrefix(rest, []byte(`"text_after":[`))
	if !ok {
		return nil, rest, true
	}
	for {
		var n int
		if n, r, ok = digits(r); !ok || len(r) == 0 {
			return nil, nil, false
		}
		places = append(places, n)
		switch r[0] {
		case ',':
			r = r[1:]
		case ']':
			after, ok = bytes.CutPrefix(r[1:], []byte(","))
			return places, after, ok
		default:
			return nil, nil, false
		}
	}
}

// readUsageRecord reads what follows {"type":"usage", in a usage record:
// "usage":{"prompt_tokens":N,"completion_tokens":N,"total_tokens":N}} with N plain digits.
func readUsageRecord(rest []byte, rec *Record) bool {
	at, rest, ok := readTime(rest)
	if !ok {
		return false
	}
	var u wire.Usage
	for _, f := range []struct {
		key []byte
		dst *int
	}{{[]byte(`"usage":{"prompt_tokens":`), &u.PromptTokens}, {[]byte(`,"completion_tokens":`), &u.CompletionTokens}, {[]byte(`,"total_tokens":`), &u.TotalTokens}} {
		if rest, ok = bytes.CutPrefix(rest, f.key); !ok {
			return false
		}
		if *f.dst, rest, ok = digits(rest); !ok {
			return false
		}
	}
	if !bytes.Equal(bytes.TrimRight(rest, " \t\r\n"), []byte("}}")) {
		return false
	}
	*rec = Record{Type: "usage", Time: at, Usage: &u}
	return true
}

// digits reads a JSON number made of at most 18 digits (no sign, fraction or exponent; no
// leading zero unless it is 0), which always fits an int.
func digits(b []byte) (n int, rest []byte, ok bool) {
	i := 0
	for i < len(b) && i <= 18 && '0' <= b[i] && b[i] <= '9' {
		n = n*10 + int(b[i]-'0')
		i++
	}
	if i == 0 || i > 18 || b[0] == '0' && i > 1 {
		return 0, nil, false
	}
	return n, b[i:], true
}
