package oneshot

import "github.com/phasechat/phasechat/view/safe"

// TextRule says how the reply's text is cleaned before it is written to Out in FormatText.
type TextRule uint8

const (
	// TextScreen is for a terminal: the screen's rules (safe.Text), every control shown.
	TextScreen TextRule = iota
	// TextPlain is for a file or a pipe: the reply's characters exactly, without what could
	// drive a terminal that shows the file later (safe.Plain).
	TextPlain
	// TextRaw writes the reply's bytes as they came (--raw).
	TextRaw
)

// cleaner cleans a text that grows by appends, by one TextRule, and keeps none of what it
// decided: each piece is handed over to be written out.
type cleaner interface {
	Append(delta string) string // the cleaned text delta decided
	Finish() string             // the text has ended: what was held back, decided
}

func newCleaner(rule TextRule) cleaner {
	switch rule {
	case TextPlain:
		return &plainCleaner{}
	case TextRaw:
		return rawCleaner{}
	}
	return &screenCleaner{}
}

type screenCleaner struct{ s safe.Stream }

func (c *screenCleaner) Append(d string) string {
	c.s.Append(d)
	return c.s.Take()
}

func (c *screenCleaner) Finish() string {
	c.s.Finish()
	return c.s.Take()
}

type plainCleaner struct{ s safe.PlainStream }

func (c *plainCleaner) Append(d string) string {
	c.s.Append(d)
	return c.s.Take()
}

func (c *plainCleaner) Finish() string {
	c.s.Finish()
	return c.s.Take()
}

type rawCleaner struct{}

func (rawCleaner) Append(d string) string { return d }
func (rawCleaner) Finish() string         { return "" }
