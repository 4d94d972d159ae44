package chat

// The focus of the transcript's cards and folded prompts is the transcript's
// (transcript.Transcript.MoveFocus); these are the front ends' ways to change it.

// MoveFocus moves the focus to the card or folded prompt delta items away (negative is up,
// towards older ones); see transcript.Transcript.MoveFocus. It reports whether it moved.
func (c *Chat) MoveFocus(delta int) bool { return c.tr.MoveFocus(delta) }

// ClearFocus leaves no card or prompt focused.
func (c *Chat) ClearFocus() { c.tr.ClearFocus() }

// Focused is the focused item: its entry's index in Entries and the card's index in the entry
// (-1 for a folded prompt); ok is false when none is focused.
func (c *Chat) Focused() (entry, card int, ok bool) { return c.tr.Focus() }
