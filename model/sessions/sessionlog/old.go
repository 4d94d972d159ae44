package sessionlog

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/phasechat/phasechat/stream/wire"
)

// textAfter is how a log written before parts kept where the cards of a reply stood: for each
// call, in order, how many bytes of the reply's text came after its card. Reading it never
// fails: anything but a list of integers reads as none, so a log edited by hand still
// resumes, its cards after the text.
type textAfter []int

func (t *textAfter) UnmarshalJSON(b []byte) error {
	var places []int
	if json.Unmarshal(b, &places) != nil || len(places) == 0 {
		places = nil
	}
	*t = places
	return nil
}

// oldOrder is the parts of m, read in the API's shape (its reasoning, then its text, then its
// calls), ordered as places says: each call's card before the last places[i] bytes of the
// text. A place below 0 or past the text (a log edited by hand), or a call with no place,
// puts the card after all the text; a place before an earlier card's moves to it, so the
// cards keep their order; one inside a UTF-8 character moves to the character's end.
func oldOrder(m wire.Message, places textAfter) []wire.Part {
	text, calls := m.Text(), m.Calls()
	parts := wire.ReplyParts(m.Reasoning(), "", nil)
	placed := 0 // the bytes of text in parts so far
	for i, c := range calls {
		at := len(text)
		if i < len(places) && places[i] > 0 && places[i] <= len(text) {
			at = max(len(text)-places[i], placed)
			for at < len(text) && !utf8.RuneStart(text[at]) {
				at++
			}
		}
		if at > placed {
			parts = append(parts, wire.Text{Text: text[placed:at]})
			placed = at
		}
		parts = append(parts, c)
	}
	if placed < len(text) {
		parts = append(parts, wire.Text{Text: text[placed:]})
	}
	return parts
}
