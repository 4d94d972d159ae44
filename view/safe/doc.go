// Package safe keeps untrusted text (model replies, reasoning, tool names, arguments, results,
// error bodies) from controlling the terminal.
//
// Every untrusted string passes [Text] (or [Line] for single-line places) before it reaches the
// screen. The sanitiser does not parse escape sequences: it neutralises the bytes and runes that
// a terminal would act on or that a reader cannot see, turning each into something visible.
// The result holds no ESC, no C0 control other than '\n' and '\t', no DEL, no C1 control, no
// bidi or zero-width control and no invalid UTF-8, so nothing in it can move the cursor, change
// modes, set the title, write the clipboard, query the terminal or reorder what is read.
//
// Rules, applied rune by rune (see [Text] for the exact sets):
//
//	C0 controls U+0000–U+001F (except \n, \t)  -> Control Pictures U+2400+c: ␀ ␇ ␈ ␍ ␛ ...
//	DEL U+007F                                 -> ␡ (U+2421)
//	C1, bidi, zero-width/format, separators,
//	interlinear annotations, tag characters,
//	variation selectors U+FE0E/U+FE0F          -> the visible text <U+XXXX>
//	each byte that does not start a valid UTF-8 encoding -> U+FFFD
//
// except that U+200D, U+FE0E/U+FE0F and tag characters pass unchanged inside an emoji sequence
// (👨‍👩‍👧, 1️⃣, 🏴󠁧󠁢󠁳󠁣󠁴󠁿: see emoji.go), and ZWNJ, ZWJ, the directional marks and the soft hyphen
// inside a word of a script that spells with them (می‌خواهم: see joiners.go), each decided from
// at most two code points before and a bounded lookahead after. [Stream] sanitises a growing text incrementally and ends equal to sanitising
// it all at once, holding back only a rune or sequence the next delta may still complete.
// The tests of other packages prove their screens obey the rules with safetest's HostileInputs
// and CheckClean. [NoColor] reads NO_COLOR.
package safe
