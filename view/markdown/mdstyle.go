package markdown

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/phasechat/phasechat/view/rows"
)

// Styles is how an assistant reply's markdown is drawn. Each field is a lipgloss style
// used for its colours and attributes only (padding, width and the like are ignored). Text is
// the body; the others are added on top of it, so a bold word in a heading is both. An empty
// style draws nothing extra: Plain is all empty and puts no escape on the screen.
type Styles struct {
	Text                         lipgloss.Style // body text; keep the terminal's own foreground
	Heading1, Heading2, Heading3 lipgloss.Style // Heading3 also serves levels 4–6
	Bold, Italic, Strike         lipgloss.Style
	Code                         lipgloss.Style // inline code spans
	Link, URL                    lipgloss.Style // a link's text, and its address after it
	Quote, QuoteBar              lipgloss.Style // a blockquote's text and its bar
	Bullet                       lipgloss.Style // list markers
	Rule                         lipgloss.Style // thematic breaks and table borders
	TableHeader                  lipgloss.Style
	Fence                        lipgloss.Style // a code block's fence lines and continuation marks

	// Code block tokens.
	Keyword, String, Comment, Number, Type lipgloss.Style
	Inserted, Deleted, Hunk                lipgloss.Style // diff lines
}

// Dark draws markdown for a dark background.
func Dark() Styles {
	s := lipgloss.NewStyle()
	fg := func(c string) lipgloss.Style { return s.Foreground(lipgloss.Color(c)) }
	return Styles{
		Heading1: fg("75").Bold(true).Underline(true), Heading2: fg("75").Bold(true), Heading3: s.Bold(true),
		Bold: s.Bold(true), Italic: s.Italic(true), Strike: s.Strikethrough(true),
		Code: fg("215"), Link: fg("117").Underline(true), URL: fg("244"),
		Quote: s.Italic(true), QuoteBar: fg("240"), Bullet: fg("75"), Rule: fg("240"),
		TableHeader: s.Bold(true), Fence: fg("240"),
		Keyword: fg("204"), String: fg("150"), Comment: fg("244").Italic(true), Number: fg("141"), Type: fg("81"),
		Inserted: fg("78"), Deleted: fg("203"), Hunk: fg("75"),
	}
}

// Light draws markdown for a light background: darker inks of the same roles.
func Light() Styles {
	s := lipgloss.NewStyle()
	fg := func(c string) lipgloss.Style { return s.Foreground(lipgloss.Color(c)) }
	return Styles{
		Heading1: fg("25").Bold(true).Underline(true), Heading2: fg("25").Bold(true), Heading3: s.Bold(true),
		Bold: s.Bold(true), Italic: s.Italic(true), Strike: s.Strikethrough(true),
		Code: fg("130"), Link: fg("26").Underline(true), URL: fg("243"),
		Quote: s.Italic(true), QuoteBar: fg("248"), Bullet: fg("25"), Rule: fg("248"),
		TableHeader: s.Bold(true), Fence: fg("246"),
		Keyword: fg("126"), String: fg("28"), Comment: fg("243").Italic(true), Number: fg("92"), Type: fg("31"),
		Inserted: fg("28"), Deleted: fg("160"), Hunk: fg("25"),
	}
}

// Mono is for NO_COLOR: no colour, only bold, italic, underline and reverse, so
// headings, emphasis, code and links still stand out.
func Mono() Styles {
	s := lipgloss.NewStyle()
	return Styles{
		Heading1: s.Bold(true).Underline(true), Heading2: s.Bold(true), Heading3: s.Bold(true),
		Bold: s.Bold(true), Italic: s.Italic(true), Strike: s.Strikethrough(true),
		Code: s.Reverse(true), Link: s.Underline(true), Quote: s.Italic(true),
		TableHeader: s.Bold(true), Keyword: s.Bold(true), Comment: s.Italic(true),
	}
}

// Plain draws no style at all: not one escape sequence.
func Plain() Styles { return Styles{} }

// mdStyle is a set of markdown roles in effect for a run of text, one bit each.
type mdStyle uint32

const (
	mdBold mdStyle = 1 << iota
	mdItalic
	mdStrike
	mdCode
	mdLink
	mdURL
	mdH1
	mdH2
	mdH3
	mdQuote
	mdQuoteBar
	mdBullet
	mdRule
	mdTableHeader
	mdFence
	mdKeyword
	mdString
	mdComment
	mdNumber
	mdType
	mdInserted
	mdDeleted
	mdHunk
	mdRoles = iota
)

// Palette is Styles compiled: the SGR each role opens (found once, as ink does), and
// the opening sequence of each combination drawn so far.
type Palette struct {
	text  string
	pre   [mdRoles]string
	combo map[mdStyle]string
}

func NewPalette(ms Styles) *Palette {
	p := &Palette{combo: map[mdStyle]string{}}
	p.text = rows.SGROf(ms.Text)
	roles := [mdRoles]lipgloss.Style{ms.Bold, ms.Italic, ms.Strike, ms.Code, ms.Link, ms.URL,
		ms.Heading1, ms.Heading2, ms.Heading3, ms.Quote, ms.QuoteBar, ms.Bullet, ms.Rule, ms.TableHeader, ms.Fence,
		ms.Keyword, ms.String, ms.Comment, ms.Number, ms.Type, ms.Inserted, ms.Deleted, ms.Hunk}
	for i, st := range roles {
		p.pre[i] = rows.SGROf(st)
	}
	return p
}

// paint draws s (clean text holding no escape) in style: the body's SGR and each role's, then
// one reset. Nothing is added when the combination sets nothing.
func (p *Palette) paint(s string, style mdStyle) string {
	if s == "" {
		return ""
	}
	pre, ok := p.combo[style]
	if !ok {
		var b strings.Builder
		b.WriteString(p.text)
		for i := range mdRoles {
			if style&(1<<i) != 0 {
				b.WriteString(p.pre[i])
			}
		}
		pre = b.String()
		p.combo[style] = pre
	}
	if pre == "" {
		return s
	}
	return pre + s + "\x1b[m"
}
