package jsonschema

import (
	"encoding/json"
	"math/big"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// kind is the JSON type of a decoded value.
type kind uint8

const (
	kindNull kind = iota
	kindBoolean
	kindNumber
	kindString
	kindArray
	kindObject
	kindUnknown // a Go value that is not a decoded JSON value
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object", "unknown"}

func (k kind) String() string { return kindNames[k] }

// kindOf is v's JSON type. Numbers may be json.Number (as the tools package decodes them) or
// any Go number type.
func kindOf(v any) kind {
	switch v.(type) {
	case nil:
		return kindNull
	case bool:
		return kindBoolean
	case json.Number, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return kindNumber
	case string:
		return kindString
	case []any:
		return kindArray
	case map[string]any:
		return kindObject
	}
	return kindUnknown
}

// decimal is an exact decimal number: 0.digits × 10^exp, negative when neg. digits has no
// leading or trailing zeros; zero is the empty digits (and never negative).
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// maxExponent bounds the decimal exponent kept; larger ones saturate, so that a number such as
// 1e999999999 costs nothing and still compares above every number of ordinary size.
const maxExponent = 1 << 40

// numberOf is v as an exact decimal; ok is false when v is not a finite number.
func numberOf(v any) (decimal, bool) {
	switch n := v.(type) {
	case json.Number:
		return parseDecimal(string(n))
	case float64:
		return parseDecimal(strconv.FormatFloat(n, 'g', -1, 64))
	case float32:
		return parseDecimal(strconv.FormatFloat(float64(n), 'g', -1, 32))
	case int:
		return parseDecimal(strconv.FormatInt(int64(n), 10))
	case int8:
		return parseDecimal(strconv.FormatInt(int64(n), 10))
	case int16:
		return parseDecimal(strconv.FormatInt(int64(n), 10))
	case int32:
		return parseDecimal(strconv.FormatInt(int64(n), 10))
	case int64:
		return parseDecimal(strconv.FormatInt(n, 10))
	case uint:
		return parseDecimal(strconv.FormatUint(uint64(n), 10))
	case uint8:
		return parseDecimal(strconv.FormatUint(uint64(n), 10))
	case uint16:
		return parseDecimal(strconv.FormatUint(uint64(n), 10))
	case uint32:
		return parseDecimal(strconv.FormatUint(uint64(n), 10))
	case uint64:
		return parseDecimal(strconv.FormatUint(n, 10))
	}
	return decimal{}, false
}

// parseDecimal reads a number in JSON's grammar (a leading '+' and a bare fraction such as
// ".5" are also accepted, as strconv writes neither but a Go caller might).
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		d.neg = s[i] == '-'
		i++
	}
	var mant []byte
	pointAt := -1
	sawDigit := false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			sawDigit = true
			mant = append(mant, c)
		case c == '.' && pointAt < 0:
			pointAt = len(mant)
		default:
			goto exponent
		}
	}
exponent:
	if !sawDigit {
		return decimal{}, false
	}
	if pointAt < 0 {
		pointAt = len(mant)
	}
	var e int64
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return decimal{}, false
		}
		i++
		eneg := false
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return decimal{}, false
		}
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return decimal{}, false
			}
			if e < maxExponent {
				e = e*10 + int64(c-'0')
			}
		}
		if eneg {
			e = -e
		}
	}
	lead := 0
	for lead < len(mant) && mant[lead] == '0' {
		lead++
	}
	trail := len(mant)
	for trail > lead && mant[trail-1] == '0' {
		trail--
	}
	if lead == trail {
		return decimal{}, true // zero, whatever its sign
	}
	d.digits = string(mant[lead:trail])
	d.exp = clampExp(int64(pointAt-lead) + e)
	return d, true
}

func clampExp(e int64) int64 { return max(-maxExponent, min(maxExponent, e)) }

// cmp orders a and b by value: -1, 0 or +1.
func (a decimal) cmp(b decimal) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	m := a.cmpMagnitude(b)
	if a.neg {
		return -m
	}
	return m
}

func (a decimal) sign() int {
	switch {
	case a.digits == "":
		return 0
	case a.neg:
		return -1
	}
	return 1
}

func (a decimal) cmpMagnitude(b decimal) int {
	switch {
	case a.exp < b.exp:
		return -1
	case a.exp > b.exp:
		return 1
	}
	return strings.Compare(a.digits, b.digits)
}

// isInteger reports whether a has no fraction (1.0 and 1e2 are integers).
func (a decimal) isInteger() bool { return a.digits == "" || int64(len(a.digits)) <= a.exp }

// multipleOf reports whether a is an integer multiple of b, exactly; b must be positive. It
// takes time linear in a's digits, however many: the value may be hostile, the schema is not.
func (a decimal) multipleOf(b decimal) bool {
	if a.digits == "" {
		return true
	}
	// a = da × 10^ea and b = db × 10^eb with da, db integers that do not end in 0, so
	// a/b = (da/db) × 10^k. For k < 0 that needs 10 to divide da, which it does not; for
	// k >= 0, db must divide da × 10^k.
	k := (a.exp - int64(len(a.digits))) - (b.exp - int64(len(b.digits)))
	if k < 0 {
		return false
	}
	if len(b.digits) <= 18 {
		db, _ := strconv.ParseUint(b.digits, 10, 64)
		return mulMod(digitsMod(a.digits, db), powMod(10, k, db), db) == 0
	}
	db, _ := new(big.Int).SetString(b.digits, 10)
	r, chunk := new(big.Int), new(big.Int)
	for i := 0; i < len(a.digits); i += 9 {
		part := a.digits[i:min(i+9, len(a.digits))]
		n, _ := strconv.ParseInt(part, 10, 64)
		r.Mul(r, chunk.Exp(big.NewInt(10), big.NewInt(int64(len(part))), nil))
		r.Add(r, chunk.SetInt64(n))
		r.Rem(r, db)
	}
	r.Mul(r, chunk.Exp(big.NewInt(10), big.NewInt(k), db))
	return r.Rem(r, db).Sign() == 0
}

// digitsMod is the decimal digits s, read as an integer, modulo m (m < 10^18).
func digitsMod(s string, m uint64) uint64 {
	var r uint64
	for i := 0; i < len(s); i++ {
		r = (r*10 + uint64(s[i]-'0')) % m
	}
	return r
}

// mulMod is x × y modulo m, without overflow.
func mulMod(x, y, m uint64) uint64 {
	hi, lo := bits.Mul64(x%m, y%m)
	return bits.Rem64(hi, lo, m)
}

// powMod is base^e modulo m.
func powMod(base uint64, e int64, m uint64) uint64 {
	result, b := 1%m, base%m
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			result = mulMod(result, b, m)
		}
		b = mulMod(b, b, m)
	}
	return result
}

// equal is JSON equality: numbers by value, objects whatever their key order.
func equal(a, b any) bool {
	ka, kb := kindOf(a), kindOf(b)
	if ka != kb {
		return false
	}
	switch ka {
	case kindNull:
		return true
	case kindBoolean:
		return a.(bool) == b.(bool)
	case kindNumber:
		da, oka := numberOf(a)
		db, okb := numberOf(b)
		return oka && okb && da.cmp(db) == 0
	case kindString:
		return a.(string) == b.(string)
	case kindArray:
		x, y := a.([]any), b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case kindObject:
		x, y := a.(map[string]any), b.(map[string]any)
		if len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// canonical writes v so that two values are JSON-equal exactly when their canonical forms
// are the same: object keys sorted, numbers by value.
func canonical(b *strings.Builder, v any) {
	switch kindOf(v) {
	case kindNull:
		b.WriteString("n")
	case kindBoolean:
		if v.(bool) {
			b.WriteString("t")
		} else {
			b.WriteString("f")
		}
	case kindNumber:
		d, _ := numberOf(v)
		b.WriteString("#")
		if d.neg {
			b.WriteByte('-')
		}
		b.WriteString(d.digits)
		b.WriteByte('e')
		b.WriteString(strconv.FormatInt(d.exp, 10))
	case kindString:
		b.WriteString(strconv.Quote(v.(string)))
	case kindArray:
		b.WriteByte('[')
		for _, x := range v.([]any) {
			canonical(b, x)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case kindObject:
		m := v.(map[string]any)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for _, k := range keys {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			canonical(b, m[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default:
		b.WriteString("?")
	}
}

// showLimit is how much of a value a message quotes.
const showLimit = 64

// show writes v as compact JSON for a message, cut short after about showLimit bytes, so that
// a large argument never comes back whole.
func show(v any) string {
	var b strings.Builder
	writeShort(&b, v)
	return cut(b.String(), showLimit)
}

// writeShort writes v as JSON, stopping once the text is past showLimit.
func writeShort(b *strings.Builder, v any) {
	if b.Len() > showLimit {
		return
	}
	switch x := v.(type) {
	case string:
		if len(x) > showLimit {
			x = x[:showLimit] // show cuts the quoted text at a rune boundary
		}
		b.WriteString(strconv.Quote(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if b.Len() > showLimit {
				return
			}
			if i > 0 {
				b.WriteByte(',')
			}
			writeShort(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if b.Len() > showLimit {
				return
			}
			if i > 0 {
				b.WriteByte(',')
			}
			writeShort(b, k)
			b.WriteByte(':')
			writeShort(b, x[k])
		}
		b.WriteByte('}')
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		b.WriteString(string(x))
	default:
		if d, ok := numberOf(v); ok {
			b.WriteString(d.String())
		} else {
			b.WriteString("?")
		}
	}
}

// String writes d in plain or exponent notation, whichever is shorter for its size.
func (d decimal) String() string {
	if d.digits == "" {
		return "0"
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	n := int64(len(d.digits))
	switch {
	case d.exp >= n && d.exp <= 21:
		return sign + d.digits + strings.Repeat("0", int(d.exp-n))
	case d.exp > 0 && d.exp < n:
		return sign + d.digits[:d.exp] + "." + d.digits[d.exp:]
	case d.exp <= 0 && d.exp > -6:
		return sign + "0." + strings.Repeat("0", int(-d.exp)) + d.digits
	}
	m := d.digits[:1]
	if n > 1 {
		m += "." + d.digits[1:]
	}
	return sign + m + "e" + strconv.FormatInt(d.exp-1, 10)
}

// runeCount is the length of s in code points, as minLength and maxLength count it.
func runeCount(s string) int { return utf8.RuneCountInString(s) }
