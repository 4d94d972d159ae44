package phase

import "unicode/utf8"

// CardPlace is where in a reply's text the card of a tool call goes whose TextAfter is after
// (how many bytes of text came after the card when it was shown live), given that the cards
// before it took the text up to placed. It is the one reading of a saved place: 0 or a value
// out of range puts the card after all the text; a place before placed moves to placed, so
// cards keep their order; a place inside a UTF-8 character moves to the character's end.
func CardPlace(text string, after, placed int) int {
	if after <= 0 || after > len(text) {
		return len(text)
	}
	at := max(len(text)-after, placed)
	for at < len(text) && !utf8.RuneStart(text[at]) {
		at++
	}
	return at
}
