package wire

// DecodeMessage reads one JSON message as Message.UnmarshalJSON does, in a single pass. ok is
// false when data holds anything this reader leaves to encoding/json: a syntax error, a value
// of a type Unmarshal would report, native reasoning, attachments, or anything but an object. Read it with
// json.Unmarshal then, which decodes it (or says what is wrong) exactly as before.
func DecodeMessage(data []byte) (m Message, ok bool) {
	s := scanner{s: string(data), pools: &lentPools}
	s.ws()
	if s.peek() != '{' {
		return Message{}, false
	}
	var (
		d                  wireDelta
		role, callID, name string
		strict             = true
		str                = func(dst *string) {
			switch s.peek() {
			case '"':
				*dst, _, _ = s.str()
			case 'n':
				s.literal("null")
			default:
				strict = false
				s.skip()
			}
		}
	)
	s.open()
	for n := 0; strict; {
		key, more := s.member(&n)
		if !more {
			break
		}
		if s.folds {
			key = fieldName(key, "role", "tool_call_id", "name", "native_reasoning", "attachments",
				"content", "reasoning_content", "reasoning", "tool_calls", "function_call")
		}
		switch key {
		case "role":
			str(&role)
		case "tool_call_id":
			str(&callID)
		case "name":
			str(&name)
		case "native_reasoning", "attachments":
			strict = s.isNull()
		case "content":
			s.content(&d.Content)
		case "reasoning_content":
			s.wstring(&d.ReasoningContent)
		case "reasoning":
			s.wstring(&d.Reasoning)
		case "tool_calls":
			switch s.peek() {
			case '[':
				d.ToolCalls, strict = s.strictToolCalls(d.ToolCalls)
			case 'n':
				s.literal("null")
				d.ToolCalls = nil
			default:
				strict = false
			}
		case "function_call":
			switch {
			case s.isNull():
				d.FunctionCall = nil
			case s.peek() == '{':
				if d.FunctionCall == nil {
					d.FunctionCall = new(wireFunction)
				}
				s.function(d.FunctionCall)
			default:
				strict = false
			}
		default:
			s.skip()
		}
	}
	s.ws()
	if !strict || s.bad || s.i != len(s.s) {
		return Message{}, false
	}
	m = messageFromWire(&d)
	m.Role, m.ToolCallID, m.Name = role, callID, name
	return m, true
}

// lentPools lends nothing: a message's slices are its own.
var lentPools = chunkPools{choice: pool[wireChoice]{used: true}, call: pool[wireToolCall]{used: true}, part: pool[contentPart]{used: true}}

// strictToolCalls reads tool_calls as toolCalls does; ok is false for an element or a function
// of a type encoding/json would report.
func (s *scanner) strictToolCalls(out []wireToolCall) (_ []wireToolCall, ok bool) {
	if !s.open() {
		return out, false
	}
	i := 0
	for n := 0; s.element(&n); i++ {
		out = grow(out, i, &s.pools.call)
		switch s.peek() {
		case '{':
			if !s.strictToolCall(&out[i]) {
				return out, false
			}
		case 'n':
			s.literal("null")
		default:
			return out, false
		}
	}
	if i < len(out) {
		out = out[:i]
	}
	if i == 0 {
		out = []wireToolCall{}
	}
	return out, true
}

func (s *scanner) strictToolCall(tc *wireToolCall) bool {
	if !s.open() {
		return false
	}
	for n := 0; ; {
		key, ok := s.member(&n)
		if !ok {
			return true
		}
		if s.folds {
			key = fieldName(key, "index", "id", "function", "extra_content")
		}
		switch key {
		case "index":
			s.index(&tc.Index)
		case "id":
			s.wstring(&tc.ID)
		case "extra_content":
			tc.ExtraContent = rawMessage(s.raw())
		case "function":
			switch s.peek() {
			case '{':
				s.function(&tc.Function)
			case 'n':
				s.literal("null")
			default:
				return false
			}
		default:
			s.skip()
		}
	}
}
