package wire

import (
	"encoding/json"
	"strconv"
)

// The Anthropic Messages and Responses events, read in one pass with the chunk scanner
// (chunkscan.go) into exactly the fields their decoders use. Each fills its event as
// json.Unmarshal would fill a zero one: keys matched case-insensitively, a value of the wrong
// type left out, the last of duplicate keys winning; and reports whether the payload is
// exactly one valid JSON text.

func decodeAnthropicEvent(payload string, ev *anthropicEvent) bool {
	s := scanner{s: payload}
	s.ws()
	if s.peek() == '{' {
		s.anthropicEvent(ev)
	} else {
		s.skip()
	}
	s.ws()
	return !s.bad && s.i == len(s.s)
}

func decodeResponsesEvent(payload string, ev *responsesEvent) bool {
	s := scanner{s: payload}
	s.ws()
	if s.peek() == '{' {
		s.responsesEvent(ev)
	} else {
		s.skip()
	}
	s.ws()
	return !s.bad && s.i == len(s.s)
}

// object opens the object the scanner is on and calls member for each of its members with
// the key (folded onto one of names when it matches one case-insensitively); a value that is
// not an object is skipped. member must consume the value.
func (s *scanner) object(member func(key string), names ...string) {
	if s.peek() != '{' {
		s.skip()
		return
	}
	if !s.open() {
		return
	}
	for n := 0; ; {
		key, ok := s.member(&n)
		if !ok {
			return
		}
		if s.folds {
			if k := fieldName(key, names...); k != "" {
				key = k
			}
		}
		member(key)
	}
}

// text reads a string field: a string sets it; anything else leaves it as it is.
func (s *scanner) text(dst *string) {
	if s.peek() != '"' {
		s.skip()
		return
	}
	if t, _, ok := s.str(); ok {
		*dst = t
	}
}

// textLone reads a string field as text does, and the surrogate halves its escapes left lone
// at its edges.
func (s *scanner) textLone(dst *string, halves *lone) {
	if s.peek() != '"' {
		s.skip()
		return
	}
	if t, h, ok := s.str(); ok {
		*dst, *halves = t, h
	}
}

// intPtr reads an integer field held by pointer: null clears it, an integer that fits sets
// it, anything else leaves it as it is.
func (s *scanner) intPtr(dst **int) {
	if s.isNull() {
		*dst = nil
		return
	}
	if c := s.peek(); c != '-' && !isDigit(c) {
		s.skip()
		return
	}
	if text, ok := s.number(); ok {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			v := int(n)
			*dst = &v
		}
	}
}

// rawValue reads any value as its JSON text (null too, as encoding/json keeps it).
func (s *scanner) rawValue(dst *json.RawMessage) {
	if raw := s.raw(); !s.bad {
		*dst = json.RawMessage(raw)
	}
}

func (s *scanner) anthropicEvent(ev *anthropicEvent) {
	s.object(func(key string) {
		switch key {
		case "type":
			s.text(&ev.Type)
		case "index":
			s.int(&ev.Index)
		case "message":
			s.object(func(key string) {
				if key == "usage" {
					s.anthropicUsage(&ev.Message.Usage)
				} else {
					s.skip()
				}
			}, "usage")
		case "content_block":
			s.anthropicContent(&ev.ContentBlock)
		case "delta":
			d := &ev.Delta
			s.object(func(key string) {
				switch key {
				case "type":
					s.text(&d.Type)
				case "text":
					s.textLone(&d.Text, &d.TextHalves)
				case "partial_json":
					s.text(&d.PartialJSON)
				case "thinking":
					s.textLone(&d.Thinking, &d.ThinkingHalves)
				case "signature":
					s.text(&d.Signature)
				case "stop_reason":
					s.text(&d.StopReason)
				default:
					s.skip()
				}
			}, "type", "text", "partial_json", "thinking", "signature", "stop_reason")
		case "usage":
			s.anthropicUsage(&ev.Usage)
		default:
			s.skip()
		}
	}, "type", "index", "message", "content_block", "delta", "usage")
}

func (s *scanner) anthropicContent(c *anthropicContent) {
	s.object(func(key string) {
		switch key {
		case "type":
			s.text(&c.Type)
		case "id":
			s.text(&c.ID)
		case "name":
			s.text(&c.Name)
		case "input":
			s.rawValue(&c.Input)
		case "text":
			s.textLone(&c.Text, &c.TextHalves)
		case "thinking":
			s.textLone(&c.Thinking, &c.ThinkingHalves)
		case "signature":
			s.text(&c.Signature)
		case "data":
			s.text(&c.Data)
		default:
			s.skip()
		}
	}, "type", "id", "name", "input", "text", "thinking", "signature", "data")
}

// objectInto readies *dst for an object value, as encoding/json fills a pointer field: null
// sets it to nil, any other non-object is skipped and leaves it, and an object reuses *dst or
// allocates it. It returns the struct to fill, or nil when the value was consumed already.
func objectInto[T any](s *scanner, dst **T) *T {
	if s.isNull() {
		*dst = nil
		return nil
	}
	if s.peek() != '{' {
		s.skip()
		return nil
	}
	if *dst == nil {
		*dst = new(T)
	}
	return *dst
}

func (s *scanner) anthropicUsage(dst **anthropicUsage) {
	u := objectInto(s, dst)
	if u == nil {
		return
	}
	s.object(func(key string) {
		switch key {
		case "input_tokens":
			s.intPtr(&u.InputTokens)
		case "cache_creation_input_tokens":
			s.intPtr(&u.CacheCreation)
		case "cache_read_input_tokens":
			s.intPtr(&u.CacheRead)
		case "output_tokens":
			s.intPtr(&u.OutputTokens)
		default:
			s.skip()
		}
	}, "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")
}

func (s *scanner) responsesEvent(ev *responsesEvent) {
	s.object(func(key string) {
		switch key {
		case "type":
			s.text(&ev.Type)
		case "item_id":
			s.text(&ev.ItemID)
		case "output_index":
			s.int(&ev.OutputIndex)
		case "content_index":
			s.int(&ev.ContentIndex)
		case "summary_index":
			s.int(&ev.SummaryIndex)
		case "delta":
			s.textLone(&ev.Delta, &ev.DeltaHalves)
		case "text":
			s.text(&ev.Text)
		case "refusal":
			s.text(&ev.Refusal)
		case "arguments":
			s.text(&ev.Arguments)
		case "item":
			s.rawValue(&ev.Item)
		case "response":
			s.responsesBody(&ev.Response)
		default:
			s.skip()
		}
	}, "type", "item_id", "output_index", "content_index", "summary_index", "delta", "text", "refusal", "arguments", "item", "response")
}

func (s *scanner) responsesBody(dst **responsesBody) {
	b := objectInto(s, dst)
	if b == nil {
		return
	}
	s.object(func(key string) {
		switch key {
		case "status":
			s.text(&b.Status)
		case "usage":
			u := objectInto(s, &b.Usage)
			if u == nil {
				return
			}
			s.object(func(key string) {
				switch key {
				case "input_tokens":
					s.int(&u.InputTokens)
				case "output_tokens":
					s.int(&u.OutputTokens)
				case "total_tokens":
					s.int(&u.TotalTokens)
				case "input_tokens_details":
					s.tokenDetails(&u.InputDetails)
				case "output_tokens_details":
					s.tokenDetails(&u.OutputDetails)
				default:
					s.skip()
				}
			}, "input_tokens", "output_tokens", "total_tokens", "input_tokens_details", "output_tokens_details")
		case "incomplete_details":
			d := objectInto(s, &b.IncompleteDetails)
			if d == nil {
				return
			}
			s.object(func(key string) {
				if key == "reason" {
					s.text(&d.Reason)
				} else {
					s.skip()
				}
			}, "reason")
		case "error":
			s.rawValue(&b.Error)
		default:
			s.skip()
		}
	}, "status", "usage", "incomplete_details", "error")
}
