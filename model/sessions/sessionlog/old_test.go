package sessionlog

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/phasechat/phasechat/stream/wire"
)

// layout writes parts as "t:<text>" and "c:<call id>", in order.
func layout(parts []wire.Part) string {
	var out []string
	for _, p := range parts {
		switch p := p.(type) {
		case wire.Text:
			out = append(out, "t:"+p.Text)
		case wire.ToolCall:
			out = append(out, "c:"+p.ID)
		case wire.Reasoning:
			out = append(out, "r:"+p.Text)
		}
	}
	return strings.Join(out, " ")
}

// placedReply is a reply read in the API's shape with a call per place.
func placedReply(text string, n int) wire.Message {
	var calls []wire.ToolCall
	for i := range n {
		calls = append(calls, wire.ToolCall{Index: i, ID: string(rune('a' + i))})
	}
	return wire.Message{Role: "assistant", Parts: wire.ReplyParts("", text, calls)}
}

// A reply of a log written before parts puts each card where its text_after says; a value that
// cannot be a place (below 0, past the text, before the card ahead of it, inside a
// character) still gives parts that join to the text, with every card once and in order.
func TestOldOrderPutsCardsWhereTheirTextAfterSays(t *testing.T) {
	for _, tc := range []struct {
		name  string
		text  string
		after []int
		want  string
	}{
		{"none kept", "abc", []int{0, 0}, "t:abc c:a c:b"},
		{"before all the text", "abc", []int{3}, "c:a t:abc"},
		{"between", "abcdef", []int{4, 2}, "t:ab c:a t:cd c:b t:ef"},
		{"two at one place", "abcd", []int{2, 2}, "t:ab c:a c:b t:cd"},
		{"the last after the text", "abcd", []int{2, 0}, "t:ab c:a t:cd c:b"},
		{"no text", "", []int{0, 0}, "c:a c:b"},
		{"below 0", "abc", []int{-1}, "t:abc c:a"},
		{"past the text", "abc", []int{4}, "t:abc c:a"},
		{"far past the text", "abc", []int{1 << 62}, "t:abc c:a"},
		{"before the card ahead", "abcdef", []int{2, 5}, "t:abcd c:a c:b t:ef"},
		{"inside a character", "añb", []int{2}, "t:añ c:a t:b"},
		{"a card without a place after one with", "abc", []int{2, -7}, "t:a c:a t:bc c:b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := layout(oldOrder(placedReply(tc.text, len(tc.after)), tc.after)); got != tc.want {
				t.Fatalf("parts %q, want %q", got, tc.want)
			}
		})
	}
	m := placedReply("abc", 1)
	m.Parts = append([]wire.Part{wire.Reasoning{Text: "hm"}}, m.Parts...)
	if got := layout(oldOrder(m, textAfter{2})); got != "r:hm t:a c:a t:bc" {
		t.Fatalf("with reasoning: parts %q", got)
	}
}

// FuzzOldOrder: whatever places an old log gives its cards, the reply's parts join to its
// text, in pieces that split no character, with every card once and in order.
func FuzzOldOrder(f *testing.F) {
	f.Add("Let me look. It says so. So.", 16, 4, 0)
	f.Add("añb", 2, -1, 1<<40)
	f.Add("", 3, 0, 0)
	f.Fuzz(func(t *testing.T, text string, a, b, c int) {
		parts := oldOrder(placedReply(text, 3), textAfter{a, b, c})
		var joined strings.Builder
		next, wasText := 0, false
		for _, p := range parts {
			piece, isText := p.(wire.Text)
			if isText && wasText {
				t.Fatalf("two text parts in a row: %q", layout(parts))
			}
			wasText = isText
			if !isText {
				if id := p.(wire.ToolCall).ID; id != string(rune('a'+next)) {
					t.Fatalf("card %s where card %d belongs: %q", id, next, layout(parts))
				}
				next++
				continue
			}
			if piece.Text == "" || !utf8.RuneStart(piece.Text[0]) && joined.Len() > 0 {
				t.Fatalf("a text part %q at %d: %q", piece.Text, joined.Len(), layout(parts))
			}
			joined.WriteString(piece.Text)
		}
		if next != 3 || joined.String() != text {
			t.Fatalf("%d cards, text %q of %q", next, joined.String(), text)
		}
	})
}
