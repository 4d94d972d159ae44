package oneshot

import (
	"strings"

	"github.com/phasechat/phasechat/view/safe"
)

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

// cleaner cleans a text that grows by appends, by one TextRule.
type cleaner interface {
	Append(delta string)
	String() string // the cleaned text decided so far; it only grows
	Finish()        // the text has ended: decide what was held back
}

func newCleaner(rule TextRule) cleaner {
	switch rule {
	case TextPlain:
		return &plainCleaner{}
	case TextRaw:
		return &rawCleaner{}
	}
	return &screenCleaner{}
}

type screenCleaner struct{ s safe.Stream }

func (c *screenCleaner) Append(d string) { c.s.Append(d) }
func (c *screenCleaner) String() string  { return c.s.String() }
func (c *screenCleaner) Finish()         { c.s.Finish() }

type plainCleaner struct{ s safe.PlainStream }

func (c *plainCleaner) Append(d string) { c.s.Append(d) }
func (c *plainCleaner) String() string  { return c.s.String() }
func (c *plainCleaner) Finish()         { c.s.Finish() }

type rawCleaner struct{ text strings.Builder }

func (c *rawCleaner) Append(d string) { c.text.WriteString(d) }
func (c *rawCleaner) String() string  { return c.text.String() }
func (c *rawCleaner) Finish()         {}
