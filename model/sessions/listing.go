package sessions

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/view/safe"
)

// WriteTable prints all as the columns `sessions list` shows, the latest first as given, or
// says that dir holds none yet. Titles and models pass the sanitiser: they may hold
// anything a prompt or a server sent.
func WriteTable(w io.Writer, all []Meta, dir string) error {
	if len(all) == 0 {
		_, err := fmt.Fprintf(w, "No saved sessions yet in %s.\n", safe.Line(dir))
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tTURNS\tTOKENS\tCOST\tMODEL\tTITLE")
	for _, m := range all {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", m.ID, m.Updated.Local().Format("2006-01-02 15:04"), m.Turns,
			tokensColumn(m), costColumn(m), safe.Line(m.Model), safe.Line(m.Title))
	}
	return tw.Flush()
}

// tokensColumn is a conversation's tokens in and out ("1,200↑ 340↓", as the footer writes
// them); "-" when no server reported any.
func tokensColumn(m Meta) string {
	if m.TokensIn == 0 && m.TokensOut == 0 {
		return "-"
	}
	return format.Thousands(m.TokensIn) + "↑ " + format.Thousands(m.TokensOut) + "↓"
}

// costColumn is a conversation's cost; "-" when no model it used had a known price.
func costColumn(m Meta) string {
	if m.CostUSD <= 0 {
		return "-"
	}
	return budget.Dollars(m.CostUSD)
}

// WriteHits prints each search hit as its session's id and title, then the matching
// message's role and snippet on an indented line.
func WriteHits(w io.Writer, hits []Hit) error {
	for _, h := range hits {
		if _, err := fmt.Fprintf(w, "%s  %s\n    %s: %s\n", h.Meta.ID, safe.Line(h.Meta.Title), h.Role, safe.Line(h.Snippet)); err != nil {
			return err
		}
	}
	return nil
}
