package wire

import (
	"strings"
	"testing"
)

// argPieces are the argument fragments FuzzReassembly draws from (raw JSON values).
var argPieces = []string{`""`, `null`, `"{"`, `"}"`, `"{\"a\":"`, `"1"`, `"1}"`, `"[1,"`, `"2]"`, `"\"s\""`,
	`" "`, `"{}"`, `{"k":[1,2]}`, `3`, `"tr"`, `"ue"`, `"{\"q\":\"x\"}"`, `"]"`, `","`, `"\\u00e9"`}

// FuzzReassembly builds a stream from a program of 4-byte operations (tool-call fragments
// with or without index, id and name; content; reasoning; finish_reason; usage; malformed and
// error frames), so the fuzzer explores the routing rules rather than JSON syntax. Besides the
// invariants of checkInvariants, when every fragment carries an index and no id, each call's
// arguments must be exactly the concatenation of its index's fragments.
func FuzzReassembly(f *testing.F) {
	f.Add([]byte{0, 1, 5, 4, 0, 1, 0, 6, 1, 2, 9, 11, 6, 0, 0, 0})
	f.Add([]byte{1, 0, 5, 16, 0, 0, 0, 0, 4, 0, 0, 1, 0, 0, 10, 12, 7, 0, 0, 0})
	f.Add([]byte{0, 2, 1, 4, 0, 3, 6, 11, 0, 2, 0, 6, 0, 3, 0, 5, 5, 0, 0, 1})
	f.Fuzz(func(t *testing.T, prog []byte) {
		var body strings.Builder
		want := map[int]string{} // index -> concatenated fragments
		indexedOnly := true
		for i := 0; i+4 <= len(prog); i += 4 {
			op, a, b, c := prog[i]%8, prog[i+1], prog[i+2], prog[i+3]
			var data string
			switch {
			case op < 4:
				index, id, name := int(a%4)-1, []string{"", "A", "B", "C"}[b%4], []string{"", "f", "g"}[b/4%3]
				args := argPieces[int(c)%len(argPieces)]
				data = tool(index, id, name, args)
				if index < 0 || id != "" {
					indexedOnly = false
				}
				want[index] += argText(args)
			case op == 4:
				data = delta(`{"content":` + []string{`""`, `"hi"`, `null`}[c%3] + `}`)
			case op == 5:
				data = delta(`{"reasoning_content":` + []string{`""`, `"hm"`, `null`}[c%3] + `}`)
			case op == 6:
				data = finishChunk([]string{"stop", "tool_calls", "length"}[c%3])
			default:
				data = []string{`{"choices":[],"usage":{"prompt_tokens":1}}`, `not json`, `{"error":{"message":"x"}}`}[c%3]
			}
			body.WriteString("data: " + data + "\n\n")
		}
		if len(prog)%2 == 0 {
			body.WriteString("data: [DONE]\n\n")
		}
		ups, res := decodeBody("", body.String())
		checkInvariants(t, ups, res)
		if !indexedOnly || hasErrorBefore(ups) {
			return
		}
		got := map[int]string{}
		for _, tc := range res.Message.Calls() {
			got[tc.Index] = tc.Arguments
		}
		for index, args := range want {
			if got[index] != args {
				t.Fatalf("call %d: arguments %q, fragments %q", index, got[index], args)
			}
		}
	})
}

// argText is the text a raw arguments value contributes: a string's contents, nothing for
// null, else the JSON itself.
func argText(raw string) string {
	var a wireArgs
	a.UnmarshalJSON([]byte(raw))
	return a.Text
}

// hasErrorBefore reports an error frame that ended the stream before the program did.
func hasErrorBefore(ups []Update) bool {
	for _, u := range ups {
		if u.Kind == KindError && u.N != 0 {
			return true
		}
	}
	return false
}
