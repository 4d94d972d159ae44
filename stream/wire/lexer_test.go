package wire

import (
	"encoding/json"
	"testing"
)

var lexerCases = []string{
	``, ` `, `{}`, ` { } `, `[]`, `[1,2]`, `{"a":1}`, `{"a":[1,{"b":null}],"c":"d"}`,
	`"s"`, `"a\"b\\c\/\b\f\n\r\t\u00e9"`, `true`, `false`, `null`, `0`, `-0`, `12`, `-1.5e+3`,
	`1E9`, `0.5`, `{"k":-0.0e-0}`, `{"a" : 1 , "b" : [ ] }`, "{\n\t\"a\": 1\n}",
	// invalid
	`{`, `}`, `{]`, `[}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `{,}`, `01`, `-`, `1.`, `1e`, `.5`,
	`tru`, `trUe`, `nul`, `"abc`, `"\x"`, `"\u12G4"`, "\"a\nb\"", `{} {}`, `1 2`, `{"a":1}}`,
	`[1 2]`, `{"a" 1}`, `{1:2}`, `'a'`, `+1`, `{"a":tru}`, `[`, `{"a":[}`, `x`, `"\u00"`,
}

func TestLexerMatchesEncodingJSON(t *testing.T) {
	for _, text := range lexerCases {
		var l lexer
		l.Feed(text)
		if got, want := l.Closed(), json.Valid([]byte(text)); got != want {
			t.Errorf("%q: Closed() = %v, json.Valid = %v", text, got, want)
		}
		// Any split gives the same answer.
		for cut := 0; cut <= len(text); cut++ {
			var split lexer
			split.Feed(text[:cut])
			split.Feed(text[cut:])
			if split.Closed() != l.Closed() || split.Invalid() != l.Invalid() {
				t.Errorf("%q split at %d: closed %v invalid %v, whole: %v %v", text, cut, split.Closed(), split.Invalid(), l.Closed(), l.Invalid())
			}
		}
	}
}

func TestLexerNeverRejectsAPrefixOfValidJSON(t *testing.T) {
	for _, text := range lexerCases {
		if !json.Valid([]byte(text)) {
			continue
		}
		var l lexer
		for i := 0; i < len(text); i++ {
			l.Feed(text[i : i+1])
			if l.Invalid() {
				t.Errorf("%q: invalid after %q", text, text[:i+1])
			}
		}
	}
}

func TestLexerStates(t *testing.T) {
	tests := []struct {
		text            string
		closed, invalid bool
	}{
		{"", false, false}, // blank is not closed: a header's "" is followed by the arguments
		{" \n\t", false, false},
		{`{"a":`, false, false},
		{`{"a":1}`, true, false},
		{`{"a":1} `, true, false},
		{`{"a":1} x`, false, true},
		{`12`, true, false}, // a top-level number may end here (or continue)
		{`[12`, false, false},
		{`{"a":1}}`, false, true},
	}
	for _, tt := range tests {
		var l lexer
		l.Feed(tt.text)
		if l.Closed() != tt.closed || l.Invalid() != tt.invalid {
			t.Errorf("%q: closed %v invalid %v; want %v %v", tt.text, l.Closed(), l.Invalid(), tt.closed, tt.invalid)
		}
	}
}

func TestLexerLatchesInvalid(t *testing.T) {
	var l lexer
	l.Feed(`{"a":]`)
	l.Feed(`1}`)
	if !l.Invalid() || l.Closed() {
		t.Fatal("an invalid payload must stay invalid")
	}
}
