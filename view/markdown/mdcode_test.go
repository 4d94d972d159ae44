package markdown

import "testing"

// In shell code a dash joins a word: the digits of gpt-4o-mini are no number, a number
// standing alone still is.
func TestShellWordsWithDigitsAreNoNumbers(t *testing.T) {
	sh := lookupLang("sh")
	cells, _ := highlight(sh, "phasechat --model gpt-4o-mini --max-steps 8", codeState{})
	numbers := ""
	for _, c := range cells {
		if c.style == mdNumber {
			numbers += "[" + c.s + "]"
		}
	}
	if numbers != "[8]" {
		t.Fatalf("numbers highlighted: %s, want [8]", numbers)
	}
	cells, _ = highlight(lookupLang("go"), "x := y-4", codeState{})
	if last := cells[len(cells)-1]; last.s != "4" || last.style != mdNumber {
		t.Fatalf("in Go, y-4 is a subtraction of a number: %+v", last)
	}
}
