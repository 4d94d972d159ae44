package wire

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/phasechat/phasechat/internal/jsonstr"
)

// decodeChunk reads one chunk payload into ch in a single pass, and reports whether the
// payload is exactly one valid JSON text. It fills ch as json.Unmarshal would fill a zero
// wireChunk (field names matched case-insensitively, a value of the wrong type left out, the
// last of duplicate keys winning, arrays decoded into the elements already there) except
// that choices[].message, which a stream never uses, is checked and skipped. On false, ch
// holds whatever was read before the error and must not be used.
//
// Strings that need no unescaping are substrings of payload, not copies.
func decodeChunk(payload string, ch *wireChunk, p *chunkPools) bool {
	if p == nil {
		p = new(chunkPools)
	}
	p.reset()
	s := scanner{s: payload, pools: p}
	s.ws()
	if s.peek() == '{' {
		s.chunk(ch)
	} else {
		s.skip()
	}
	s.ws()
	return !s.bad && s.i == len(s.s)
}

// maxDepth is encoding/json's nesting limit: a payload nested deeper is not valid.
const maxDepth = 10000

// chunkPools lend the first slice of each kind a chunk needs, so a usual chunk (one choice,
// one tool-call fragment, one content part) allocates none. Each is lent once per payload and
// handed out zeroed, as a fresh allocation would be; reset before each payload.
type chunkPools struct {
	choice pool[wireChoice]
	call   pool[wireToolCall]
	part   pool[contentPart]
	head   chunkHead
}

// chunkHead is how the last payload began: its members that a chunk does not read (id,
// object, created, model ... the same in every chunk of a stream), ending in a value that
// ends in its own delimiter. A payload that begins with the same bytes is in the same state
// after them, so the scanner starts after them.
type chunkHead struct {
	text    string // the payload up to the end of the last such member's value
	members int
}

func (p *chunkPools) reset() { p.choice.used, p.call.used, p.part.used = false, false, false }

type pool[T any] struct {
	buf  [1]T
	used bool
}

// take returns an empty slice of capacity 1 backed by the pool, or nil once it is lent.
func (p *pool[T]) take() []T {
	if p.used {
		return nil
	}
	var zero T
	p.buf[0], p.used = zero, true
	return p.buf[:0:1]
}

// grow extends s to i+1 elements (i is at most len(s)), as encoding/json does: elements
// within the capacity are reused as they are, new ones are zero.
func grow[T any](s []T, i int, p *pool[T]) []T {
	if s == nil && i == 0 {
		if b := p.take(); b != nil {
			return b[:1]
		}
	}
	if i < cap(s) {
		return s[:i+1]
	}
	var zero T
	return append(s, zero)
}

type scanner struct {
	s     string
	i     int
	depth int
	bad   bool // a syntax error: the payload is not JSON
	folds bool // the last member name read may match a field name it is not equal to
	pools *chunkPools
}

func (s *scanner) fail() { s.bad, s.i = true, len(s.s) }

func (s *scanner) peek() byte {
	if s.i < len(s.s) {
		return s.s[s.i]
	}
	return 0
}

func (s *scanner) ws() {
	for s.i < len(s.s) && s.s[s.i] <= ' ' {
		switch s.s[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// open consumes the '{' or '[' the scanner is on.
func (s *scanner) open() bool {
	s.i++
	if s.depth++; s.depth > maxDepth {
		s.fail()
		return false
	}
	return true
}

// member moves to the next member of the object opened with open; n counts the members so
// far. It returns the member's key (unescaped) with the scanner on its value, or false at
// the object's end (consumed) or a syntax error.
func (s *scanner) member(n *int) (string, bool) {
	if s.bad {
		return "", false
	}
	s.ws()
	c := s.peek()
	if c == '}' {
		s.i++
		s.depth--
		return "", false
	}
	if *n > 0 {
		if c != ',' {
			s.fail()
			return "", false
		}
		s.i++
		s.ws()
		c = s.peek()
	}
	if c != '"' {
		s.fail()
		return "", false
	}
	key, ok := s.key()
	if !ok {
		return "", false
	}
	s.ws()
	if s.peek() != ':' {
		s.fail()
		return "", false
	}
	s.i++
	s.ws()
	*n++
	return key, true
}

// element moves to the next element of the array opened with open, like member.
func (s *scanner) element(n *int) bool {
	if s.bad {
		return false
	}
	s.ws()
	c := s.peek()
	if c == ']' && *n == 0 {
		s.i++
		s.depth--
		return false
	}
	if *n > 0 {
		switch c {
		case ']':
			s.i++
			s.depth--
			return false
		case ',':
			s.i++
			s.ws()
		default:
			s.fail()
			return false
		}
	}
	*n++
	return true
}

// str reads the string the scanner is on and returns its text with the surrogate halves left
// lone at its edges.
func (s *scanner) str() (string, lone, bool) {
	end, text, halves, ok := jsonstr.Scan(s.s, s.i+1)
	if !ok {
		s.fail()
		return "", lone{}, false
	}
	s.i = end
	return text, lone{low: halves.Low, high: halves.High}, true
}

// key reads the member name the scanner is on, as str does, and sets s.folds when the name
// may match a field name it is not equal to (it holds an upper-case ASCII or a non-ASCII
// letter): only then must it be matched case-insensitively.
func (s *scanner) key() (string, bool) {
	src, start := s.s, s.i+1
	i := start
	for i < len(src) && lowerPlain[src[i]] {
		i++
	}
	if i < len(src) && src[i] == '"' {
		s.i, s.folds = i+1, false
		return src[start:i], true
	}
	key, _, ok := s.str()
	s.folds = folds(key)
	return key, ok
}

// lowerPlain marks the plain ASCII bytes but the upper-case letters.
var lowerPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && (c < 'A' || c > 'Z')
	}
	return t
}()

// number reads the number the scanner is on and returns its text.
func (s *scanner) number() (string, bool) {
	start, i := s.i, s.i
	if i < len(s.s) && s.s[i] == '-' {
		i++
	}
	switch {
	case i < len(s.s) && s.s[i] == '0':
		i++
	case i < len(s.s) && '1' <= s.s[i] && s.s[i] <= '9':
		for i++; i < len(s.s) && isDigit(s.s[i]); i++ {
		}
	default:
		s.fail()
		return "", false
	}
	if i < len(s.s) && s.s[i] == '.' {
		i++
		if i >= len(s.s) || !isDigit(s.s[i]) {
			s.fail()
			return "", false
		}
		for i++; i < len(s.s) && isDigit(s.s[i]); i++ {
		}
	}
	if i < len(s.s) && (s.s[i] == 'e' || s.s[i] == 'E') {
		i++
		if i < len(s.s) && (s.s[i] == '+' || s.s[i] == '-') {
			i++
		}
		if i >= len(s.s) || !isDigit(s.s[i]) {
			s.fail()
			return "", false
		}
		for i++; i < len(s.s) && isDigit(s.s[i]); i++ {
		}
	}
	s.i = i
	return s.s[start:i], true
}

// literal consumes true, false or null.
func (s *scanner) literal(word string) {
	if strings.HasPrefix(s.s[s.i:], word) {
		s.i += len(word)
		return
	}
	s.fail()
}

// isNull consumes a null the scanner is on.
func (s *scanner) isNull() bool {
	if strings.HasPrefix(s.s[s.i:], "null") {
		s.i += 4
		return true
	}
	return false
}

// skip checks and consumes any one value.
func (s *scanner) skip() {
	switch c := s.peek(); {
	case c == '{':
		if !s.open() {
			return
		}
		for n := 0; ; {
			if _, ok := s.member(&n); !ok {
				return
			}
			s.skip()
		}
	case c == '[':
		if !s.open() {
			return
		}
		for n := 0; s.element(&n); {
			s.skip()
		}
	case c == '"':
		s.str()
	case c == 't':
		s.literal("true")
	case c == 'f':
		s.literal("false")
	case c == 'n':
		s.literal("null")
	case c == '-' || isDigit(c):
		s.number()
	default:
		s.fail()
	}
}

// raw consumes one value and returns its JSON text.
func (s *scanner) raw() string {
	start := s.i
	s.skip()
	return s.s[start:s.i]
}

// fieldName returns the name among names that key matches as encoding/json matches a field name
// (exactly, else case-insensitively with Unicode simple folding), or "".
func fieldName(key string, names ...string) string {
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return n
		}
	}
	return ""
}

// folds reports whether key can match a lower-case ASCII name it is not equal to.
func folds(key string) bool {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

func (s *scanner) chunk(ch *wireChunk) {
	if !s.open() {
		return
	}
	n, head := 0, &s.pools.head
	matched := head.members > 0 && len(s.s) > len(head.text) && s.s[:len(head.text)] == head.text
	if matched {
		s.i, n = len(head.text), head.members
	}
	for unread := !matched; ; {
		key, ok := s.member(&n)
		if !ok {
			return
		}
		if s.folds {
			key = fieldName(key, "choices", "usage", "error", "type")
		}
		switch key {
		case "choices":
			switch s.peek() {
			case '[':
				ch.Choices = s.choices(ch.Choices)
			case 'n':
				s.literal("null")
				ch.Choices = nil
			default:
				s.skip()
			}
		case "usage":
			if s.isNull() {
				ch.Usage = nil
				break
			}
			if ch.Usage == nil {
				ch.Usage = new(wireUsage)
			}
			s.usage(ch.Usage)
		case "error":
			ch.Error = rawMessage(s.raw())
		case "type":
			s.plainString(&ch.Type)
		default:
			s.skip()
			if c := s.s[s.i-1]; unread && !s.bad && (c == '"' || c == '}' || c == ']') {
				*head = chunkHead{text: s.s[:s.i], members: n}
			}
			continue
		}
		unread = false
	}
}

var rawNull = []byte("null")

func rawMessage(raw string) []byte {
	if raw == "null" {
		return rawNull
	}
	return []byte(raw)
}

// plainString reads a string into *dst; null and other types leave it as it is.
func (s *scanner) plainString(dst *string) {
	if s.peek() != '"' {
		s.skip()
		return
	}
	if text, _, ok := s.str(); ok {
		*dst = text
	}
}

func (s *scanner) choices(out []wireChoice) []wireChoice {
	if !s.open() {
		return out
	}
	i := 0
	for n := 0; s.element(&n); i++ {
		out = grow(out, i, &s.pools.choice)
		if s.peek() == '{' {
			s.choice(&out[i])
		} else {
			s.skip()
		}
	}
	if i < len(out) {
		out = out[:i]
	}
	if i == 0 {
		out = []wireChoice{}
	}
	return out
}

func (s *scanner) choice(c *wireChoice) {
	if !s.open() {
		return
	}
	for n := 0; ; {
		key, ok := s.member(&n)
		if !ok {
			return
		}
		if s.folds {
			key = fieldName(key, "index", "delta", "message", "finish_reason")
		}
		switch key {
		case "index":
			s.index(&c.Index)
		case "delta":
			if s.peek() == '{' {
				s.delta(&c.Delta)
			} else {
				s.skip()
			}
		case "finish_reason":
			s.wstring(&c.FinishReason)
		default: // message included: a stream does not read it
			s.skip()
		}
	}
}

func (s *scanner) delta(d *wireDelta) {
	if !s.open() {
		return
	}
	for n := 0; ; {
		key, ok := s.member(&n)
		if !ok {
			return
		}
		if s.folds {
			key = fieldName(key, "content", "reasoning_content", "reasoning", "tool_calls", "function_call")
		}
		switch key {
		case "content":
			s.content(&d.Content)
		case "reasoning_content":
			s.wstring(&d.ReasoningContent)
		case "reasoning":
			s.wstring(&d.Reasoning)
		case "tool_calls":
			switch s.peek() {
			case '[':
				d.ToolCalls = s.toolCalls(d.ToolCalls)
			case 'n':
				s.literal("null")
				d.ToolCalls = nil
			default:
				s.skip()
			}
		case "function_call":
			if s.isNull() {
				d.FunctionCall = nil
				break
			}
			if d.FunctionCall == nil {
				d.FunctionCall = new(wireFunction)
			}
			if s.peek() == '{' {
				s.function(d.FunctionCall)
			} else {
				s.skip()
			}
		default:
			s.skip()
		}
	}
}

func (s *scanner) toolCalls(out []wireToolCall) []wireToolCall {
	if !s.open() {
		return out
	}
	i := 0
	for n := 0; s.element(&n); i++ {
		out = grow(out, i, &s.pools.call)
		if s.peek() == '{' {
			s.toolCall(&out[i])
		} else {
			s.skip()
		}
	}
	if i < len(out) {
		out = out[:i]
	}
	if i == 0 {
		out = []wireToolCall{}
	}
	return out
}

func (s *scanner) toolCall(tc *wireToolCall) {
	if !s.open() {
		return
	}
	for n := 0; ; {
		key, ok := s.member(&n)
		if !ok {
			return
		}
		if s.folds {
			key = fieldName(key, "index", "id", "function", "extra_content")
		}
		switch key {
		case "extra_content":
			tc.ExtraContent = rawMessage(s.raw())
		case "index":
			s.index(&tc.Index)
		case "id":
			s.wstring(&tc.ID)
		case "function":
			if s.peek() == '{' {
				s.function(&tc.Function)
			} else {
				s.skip()
			}
		default:
			s.skip()
		}
	}
}

func (s *scanner) function(f *wireFunction) {
	if !s.open() {
		return
	}
	for n := 0; ; {
		key, ok := s.member(&n)
		if !ok {
			return
		}
		if s.folds {
			key = fieldName(key, "name", "arguments")
		}
		switch key {
		case "name":
			s.wstring(&f.Name)
		case "arguments":
			s.args(&f.Arguments)
		default:
			s.skip()
		}
	}
}

// index reads a wireIndex: an integer literal sets it; anything else leaves it as it is.
func (s *scanner) index(w *wireIndex) {
	c := s.peek()
	if c != '-' && !isDigit(c) {
		s.skip()
		return
	}
	if text, ok := s.number(); ok {
		if n, err := strconv.Atoi(text); err == nil {
			w.N, w.Set = n, true
		}
	}
}

// wstring reads a wireString: a string sets it; anything else leaves it as it is.
func (s *scanner) wstring(w *wireString) {
	if s.peek() != '"' {
		s.skip()
		return
	}
	if text, halves, ok := s.str(); ok {
		w.S, w.lone, w.Set = text, halves, true
	}
}

// args reads a wireArgs: a string is its text, null leaves it as it is, any other value is
// kept whole as its JSON text.
func (s *scanner) args(w *wireArgs) {
	switch s.peek() {
	case '"':
		if text, halves, ok := s.str(); ok {
			w.Text, w.lone, w.Set = text, halves, true
		}
	case 'n':
		s.literal("null")
	default:
		w.Text, w.Whole, w.Set = s.raw(), true, true
	}
}

func (s *scanner) usage(u *wireUsage) {
	if s.peek() != '{' {
		s.skip()
		return
	}
	s.open()
	for n := 0; ; {
		key, ok := s.member(&n)
		if !ok {
			return
		}
		if s.folds {
			key = fieldName(key, "prompt_tokens", "completion_tokens", "total_tokens",
				"prompt_tokens_details", "completion_tokens_details", "prompt_cache_hit_tokens")
		}
		switch key {
		case "prompt_tokens":
			s.int(&u.PromptTokens)
		case "completion_tokens":
			s.int(&u.CompletionTokens)
		case "total_tokens":
			s.int(&u.TotalTokens)
		case "prompt_tokens_details":
			s.tokenDetails(&u.PromptDetails)
		case "completion_tokens_details":
			s.tokenDetails(&u.CompletionDetails)
		case "prompt_cache_hit_tokens":
			s.int(&u.CacheHitTokens)
		default:
			s.skip()
		}
	}
}

func (s *scanner) tokenDetails(d *wireTokenDetails) {
	s.object(func(key string) {
		switch key {
		case "cached_tokens":
			s.int(&d.CachedTokens)
		case "reasoning_tokens":
			s.int(&d.ReasoningTokens)
		default:
			s.skip()
		}
	}, "cached_tokens", "reasoning_tokens")
}

// int reads an integer field: an integer literal that fits sets it; anything else (a
// fraction, an exponent, another type) leaves it as it is.
func (s *scanner) int(dst *int) {
	c := s.peek()
	if c != '-' && !isDigit(c) {
		s.skip()
		return
	}
	if text, ok := s.number(); ok {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			*dst = int(n)
		}
	}
}

// content reads delta.content: a string is one part; an array is blocks, appended to the
// parts already there (as wireContent.UnmarshalJSON does); anything else leaves it as it is.
func (s *scanner) content(w *wireContent) {
	switch s.peek() {
	case '"':
		if text, halves, ok := s.str(); ok {
			w.Parts = append(s.pools.part.take(), contentPart{Text: text, lone: halves})
			w.Set = true
		}
	case '[':
		if parts, ok := s.blocks(w.Parts); ok { // a block of the wrong type drops them all
			w.Parts, w.Set = parts, true
		}
	default:
		s.skip()
	}
}

// blocks reads an array of content blocks, appending the text and thinking ones to parts.
// ok is false when a block or its type has the wrong JSON type.
func (s *scanner) blocks(parts []contentPart) (_ []contentPart, ok bool) {
	ok = true
	if !s.open() {
		return parts, false
	}
	for n := 0; s.element(&n); {
		if s.isNull() {
			continue
		}
		if s.peek() != '{' {
			s.skip()
			ok = false
			continue
		}
		var (
			typ      string
			text     wireString
			thinking string // raw JSON; "" when absent
		)
		s.open()
		for m := 0; ; {
			key, more := s.member(&m)
			if !more {
				break
			}
			if s.folds {
				key = fieldName(key, "type", "text", "thinking")
			}
			switch key {
			case "type":
				switch s.peek() {
				case '"':
					typ, _, _ = s.str()
				case 'n':
					s.literal("null")
				default:
					s.skip()
					ok = false
				}
			case "text":
				s.wstring(&text)
			case "thinking":
				thinking = s.raw()
			default:
				s.skip()
			}
		}
		if !ok || s.bad { // a payload cut off inside the block: its raw thinking is not JSON
			continue
		}
		switch typ {
		case "text":
			parts = append(parts, contentPart{Text: text.S, lone: text.lone})
		case "thinking":
			parts = append(parts, contentPart{Text: thinkingText([]byte(thinking)), Reasoning: true})
		}
	}
	return parts, ok
}
