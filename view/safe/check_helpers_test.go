package safe

import "fmt"

// The test-only inverse of Text: where a string is not clean, and why.

// UnsafeError is what [CheckClean] reports: the first byte or rune of a string that Text would
// have replaced.
type UnsafeError struct {
	Offset int    // byte offset of the unsafe byte or rune in the checked string
	Rune   rune   // the decoded rune; utf8.RuneError for an invalid byte
	Byte   byte   // the byte at Offset (for an invalid byte, the byte itself)
	Reason string // what it is, e.g. "C0 control", "bidi control", "invalid UTF-8 byte"
	Near   string // the checked string around Offset, up to 16 bytes each side
}

func (e *UnsafeError) Error() string {
	what := fmt.Sprintf("U+%04X", e.Rune)
	if e.Reason == invalidByte.String() {
		what = fmt.Sprintf("0x%02X", e.Byte)
	}
	// %q keeps the message itself safe to print.
	return fmt.Sprintf("unsafe %s %s at byte %d, near %q", e.Reason, what, e.Offset, e.Near)
}

// CheckClean reports the first ESC or other C0 control (except '\n' and '\t'), DEL, C1
// control, invalid UTF-8 byte, bidi, zero-width or format control, separator, annotation or tag
// character in s, as an *UnsafeError with its byte offset; nil when there is none. It is meant
// for tests that render a screen in plain (no colour) mode, where no escape may appear at all.
//
// Invariant: CheckClean(s) == nil exactly when Text(s) == s.
func CheckClean(s string) error {
	i, _ := scan(s, 0, textPass, true)
	if i == len(s) {
		return nil
	}
	r, size := decode(s[i:])
	lo, hi := max(0, i-16), min(len(s), i+size+16)
	return &UnsafeError{Offset: i, Rune: r, Byte: s[i], Reason: classify(r, size).String(), Near: s[lo:hi]}
}

var classNames = [...]string{
	safeRune:          "safe rune",
	c0Control:         "C0 control",
	delControl:        "DEL control",
	c1Control:         "C1 control",
	invalidByte:       "invalid UTF-8 byte",
	bidiControl:       "bidi control",
	invisibleFormat:   "zero-width or invisible format character",
	lineSeparator:     "Unicode line or paragraph separator",
	annotation:        "interlinear annotation character",
	tagCharacter:      "tag character",
	variationSelector: "variation selector",
}

func (c class) String() string { return classNames[c] }
