package view

import (
	"slices"

	"github.com/phasechat/phasechat/phase"
)

// chrome memoises the rows around the transcript (status, composer, help, footer). They
// change with the phase, the focus, the keys, the composer's text or the size, not with each
// token, so a streaming frame reuses them.
type chrome struct {
	status map[statusKey]statusBlock

	helpKeys  []Key
	helpWidth int
	help      string

	footerOf    Footer
	footerWidth int
	footer      string
	footerOK    bool

	compKey  composerKey
	compRows []string
	compTop  int
	compOK   bool
}

type statusKey struct {
	text           string // phase.Status of the state
	note           note
	phase          phase.Phase
	focus          phase.Focus
	width, maxRows int
	timing         Timing
	queue          string // queueNote
}

type composerKey struct {
	text                    string
	enabled                 bool
	width, maxRows, cursorY int
}

func (c *chrome) statusBlock(st *theme, state phase.State, n note, focus phase.Focus, timing Timing, queue string, width, maxRows int) statusBlock {
	k := statusKey{phase.Status(state), n, state.Phase, focus, width, maxRows, timing, queue}
	if b, ok := c.status[k]; ok {
		return b
	}
	if c.status == nil || len(c.status) >= 16 {
		c.status = map[statusKey]statusBlock{}
	}
	b := renderStatusTimed(st, state, n, focus, timing, queue, width, maxRows)
	c.status[k] = b
	return b
}

func (c *chrome) helpRow(st *theme, keys []Key, width int) string {
	if c.helpKeys == nil || width != c.helpWidth || !slices.Equal(keys, c.helpKeys) {
		c.helpKeys, c.helpWidth = append(make([]Key, 0, len(keys)), keys...), width
		c.help = renderHelp(st, keys, width)
	}
	return c.help
}

func (c *chrome) footerRow(st *theme, f Footer, width int) string {
	if !c.footerOK || f != c.footerOf || width != c.footerWidth {
		c.footerOf, c.footerWidth, c.footerOK = f, width, true
		c.footer = renderFooter(st, f, width)
	}
	return c.footer
}

func (c *chrome) composer(st *theme, text string, enabled bool, width, maxRows, cursorY int) ([]string, int) {
	k := composerKey{text, enabled, width, maxRows, cursorY}
	if !c.compOK || k != c.compKey {
		c.compKey, c.compOK = k, true
		c.compRows, c.compTop = composerRows(st, text, enabled, width, maxRows, cursorY)
	}
	return c.compRows, c.compTop
}
