package wire

// lexer is an incremental JSON validator for one tool call's argument text. Feed costs
// O(len(fragment)) whatever came before, so arguments streamed one byte at a time are checked
// in linear total time. It knows when the top-level value is closed, and latches
// an invalid payload once: after the first byte that cannot continue a JSON text, every later
// feed is a no-op. The zero value expects a JSON text (leading whitespace allowed).
type lexer struct {
	state lexState
	stack []byte // '{' or '[' for each open container
	key   bool   // the string being lexed is an object key
	lit   string // the rest of the literal being lexed (true, false, null)
	hex   uint8  // \u hex digits still expected
}

type lexState uint8

const (
	lxValue      lexState = iota // a value is expected
	lxValueOrEnd                 // after '[': a value or ']'
	lxKeyOrEnd                   // after '{': a key or '}'
	lxKey                        // after ',' in an object: a key
	lxColon                      // after a key: ':'
	lxAfter                      // after a value in a container: ',' or the closer
	lxString                     // inside a string
	lxEscape                     // after '\' in a string
	lxHex                        // inside \uXXXX
	lxLiteral                    // inside true, false or null
	lxMinus                      // after '-'
	lxZero                       // after a leading 0
	lxInt                        // in the integer digits
	lxDot                        // after '.'
	lxFrac                       // in the fraction digits
	lxExp                        // after 'e' or 'E'
	lxExpSign                    // after the exponent's sign
	lxExpDigits                  // in the exponent digits
	lxDone                       // the top-level value is closed; only whitespace may follow
	lxInvalid                    // latched: the text can never be valid JSON
)

// Closed reports whether the text so far is exactly one complete JSON value (plus
// whitespace). A top-level number counts as closed when it could end here ("12" is closed
// even though "123" may follow); blank text is not closed.
func (l *lexer) Closed() bool {
	switch l.state {
	case lxDone:
		return true
	case lxZero, lxInt, lxFrac, lxExpDigits:
		return len(l.stack) == 0
	}
	return false
}

// Invalid reports whether the text has already failed to be JSON.
func (l *lexer) Invalid() bool { return l.state == lxInvalid }

// Feed lexes the next fragment.
func (l *lexer) Feed(s string) {
	for i := 0; i < len(s) && l.state != lxInvalid; i++ {
		c := s[i]
		if l.state == lxString && plain[c] {
			// Fast path: most argument bytes are plain string content.
			for i++; i < len(s) && plain[s[i]]; i++ {
			}
			if i == len(s) {
				return
			}
			c = s[i]
		}
		l.step(c)
	}
}

// plain marks the bytes that continue a string without changing the lexer's state.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// step consumes one byte.
func (l *lexer) step(c byte) {
	switch l.state {
	case lxValue, lxValueOrEnd:
		if isSpace(c) {
			return
		}
		if c == ']' && l.state == lxValueOrEnd {
			l.close('[')
			return
		}
		l.beginValue(c)
	case lxKeyOrEnd, lxKey:
		switch {
		case isSpace(c):
		case c == '"':
			l.state, l.key = lxString, true
		case c == '}' && l.state == lxKeyOrEnd:
			l.close('{')
		default:
			l.state = lxInvalid
		}
	case lxColon:
		switch {
		case isSpace(c):
		case c == ':':
			l.state = lxValue
		default:
			l.state = lxInvalid
		}
	case lxAfter:
		top := l.stack[len(l.stack)-1]
		switch {
		case isSpace(c):
		case c == ',' && top == '{':
			l.state = lxKey
		case c == ',' && top == '[':
			l.state = lxValue
		case c == '}' || c == ']':
			l.close(c)
		default:
			l.state = lxInvalid
		}
	case lxString:
		switch {
		case c == '"':
			if l.key {
				l.key, l.state = false, lxColon
			} else {
				l.endValue()
			}
		case c == '\\':
			l.state = lxEscape
		case c < 0x20:
			l.state = lxInvalid
		}
	case lxEscape:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			l.state = lxString
		case 'u':
			l.state, l.hex = lxHex, 4
		default:
			l.state = lxInvalid
		}
	case lxHex:
		if !isHex(c) {
			l.state = lxInvalid
			return
		}
		if l.hex--; l.hex == 0 {
			l.state = lxString
		}
	case lxLiteral:
		if c != l.lit[0] {
			l.state = lxInvalid
			return
		}
		if l.lit = l.lit[1:]; l.lit == "" {
			l.endValue()
		}
	case lxDone:
		if !isSpace(c) {
			l.state = lxInvalid
		}
	default:
		l.number(c)
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// beginValue starts the value whose first byte is c.
func (l *lexer) beginValue(c byte) {
	switch {
	case c == '{':
		l.stack = append(l.stack, '{')
		l.state = lxKeyOrEnd
	case c == '[':
		l.stack = append(l.stack, '[')
		l.state = lxValueOrEnd
	case c == '"':
		l.state = lxString
	case c == 't':
		l.state, l.lit = lxLiteral, "rue"
	case c == 'f':
		l.state, l.lit = lxLiteral, "alse"
	case c == 'n':
		l.state, l.lit = lxLiteral, "ull"
	case c == '-':
		l.state = lxMinus
	case c == '0':
		l.state = lxZero
	case '1' <= c && c <= '9':
		l.state = lxInt
	default:
		l.state = lxInvalid
	}
}

// number consumes c inside a number. A byte that cannot continue the number ends it (when the
// number may end here) and is then consumed as whatever follows a value.
func (l *lexer) number(c byte) {
	switch l.state {
	case lxMinus:
		switch {
		case c == '0':
			l.state = lxZero
		case isDigit(c):
			l.state = lxInt
		default:
			l.state = lxInvalid
		}
		return
	case lxInt:
		if isDigit(c) {
			return
		}
		fallthrough
	case lxZero:
		switch {
		case c == '.':
			l.state = lxDot
			return
		case c == 'e' || c == 'E':
			l.state = lxExp
			return
		}
	case lxDot:
		if isDigit(c) {
			l.state = lxFrac
		} else {
			l.state = lxInvalid
		}
		return
	case lxFrac:
		switch {
		case isDigit(c):
			return
		case c == 'e' || c == 'E':
			l.state = lxExp
			return
		}
	case lxExp:
		switch {
		case c == '+' || c == '-':
			l.state = lxExpSign
		case isDigit(c):
			l.state = lxExpDigits
		default:
			l.state = lxInvalid
		}
		return
	case lxExpSign:
		if isDigit(c) {
			l.state = lxExpDigits
		} else {
			l.state = lxInvalid
		}
		return
	case lxExpDigits:
		if isDigit(c) {
			return
		}
	}
	// The number ended before c.
	l.endValue()
	l.step(c)
}

// close ends the innermost container with closer c ('}', ']' or the opener it matches).
func (l *lexer) close(c byte) {
	open := byte('{')
	if c == ']' || c == '[' {
		open = '['
	}
	if len(l.stack) == 0 || l.stack[len(l.stack)-1] != open {
		l.state = lxInvalid
		return
	}
	l.stack = l.stack[:len(l.stack)-1]
	l.endValue()
}

// endValue moves past a finished value.
func (l *lexer) endValue() {
	if len(l.stack) == 0 {
		l.state = lxDone
	} else {
		l.state = lxAfter
	}
}
