package chat

import (
	"strconv"
	"time"
)

// ApprovalQuiet is how long the keyboard must have been still, after an approval question
// appeared, before a key press answers it. Keys typed or queued before the question, and a
// burst of typing that runs on into it, are not answers.
const ApprovalQuiet = 700 * time.Millisecond

// questionText identifies the approval question shown now ("" when none): a new question, even for
// a call of the same id in a later request, gets a new identity.
func (c *Chat) questionText() string {
	if !c.Asking() {
		return ""
	}
	asked, _ := c.step.calls.Asking()
	return strconv.Itoa(c.step.id) + "/" + asked.ID
}

// ApprovalKeys decides which key presses answer an approval question: only one made while the
// question is shown, after the keyboard was quiet for ApprovalQuiet since it appeared (every
// key before that, and any key that is not an answer, restarts the wait). y runs the call, n
// declines it, and "always allow" takes a deliberate capital A: a lowercase a only says so. The engine keeps one (see
// Chat.ApprovalKey): it returns a Wait whenever Arm or Key asks for a timer and calls Quiet
// with the timer's generation when the Wait comes back. The zero value is ready. Not safe for
// concurrent use.
type ApprovalKeys struct {
	question string
	gen      int
	armed    bool
	refused  bool // a key was not taken since the question appeared or last armed
}

// ApprovalHintAlways is what a lowercase a while a question is armed is answered with.
const ApprovalHintAlways = "Press A (Shift+A) to always allow this tool, y to run it once, n to decline."

// ApprovalNotTaken is said when the question is ready for an answer after a key was not taken
// (it came too soon, or was not an answer), by a front end where nothing else would tell the
// user that the key they pressed did nothing (the line mode; the full screen's keys go to the
// draft, where they show).
const ApprovalNotTaken = "That key was not taken as an answer. Press y to run the tool, n to decline, A to always allow it."

// Arm is called after every change of the engine with its question. When a new question has
// appeared it returns true and the generation of the timer to start.
func (g *ApprovalKeys) Arm(question string) (start bool, gen int) {
	if question == g.question {
		return false, 0
	}
	g.question, g.armed, g.refused = question, false, false
	if question == "" {
		return false, 0
	}
	g.gen++
	return true, g.gen
}

// Quiet says the timer of generation gen fired: the keyboard has been still that long. It
// reports whether a key was not taken before: then the front end says ApprovalNotTaken.
func (g *ApprovalKeys) Quiet(gen int) (notTaken bool) {
	if gen != g.gen || g.question == "" {
		return false
	}
	g.armed = true
	notTaken, g.refused = g.refused, false
	return notTaken
}

// KeyVerdict is what a key press means while a question is shown.
type KeyVerdict struct {
	Answer   bool     // the key answers the question with Decision
	Decision Decision //
	Restart  bool     // the key came too soon: start a new timer of generation Gen
	Gen      int
	Hint     string // say this (a lowercase a asks for the capital)
}

// Key judges a key press (its text: "y", "n", "A", …) made while a question is shown.
func (g *ApprovalKeys) Key(key string) KeyVerdict {
	if g.question == "" {
		return KeyVerdict{}
	}
	if !g.armed {
		g.gen++
		g.refused = true
		return KeyVerdict{Restart: true, Gen: g.gen}
	}
	switch key {
	case "y", "Y":
		return KeyVerdict{Answer: true, Decision: Allow}
	case "n", "N":
		return KeyVerdict{Answer: true, Decision: Deny}
	case "A", "shift+a":
		return KeyVerdict{Answer: true, Decision: AllowAlways}
	}
	// Any other key is typing, not an answer: the keyboard must be quiet again first.
	g.armed = false
	g.gen++
	v := KeyVerdict{Restart: true, Gen: g.gen}
	if key == "a" {
		v.Hint = ApprovalHintAlways // it says what to press already
	} else {
		g.refused = true
	}
	return v
}
