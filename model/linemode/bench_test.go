package linemode

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// BenchmarkAnnounceDelta is the cost of one streamed delta (8 bytes appended, then Announce)
// after a reply of the given size, with or without line ends in it, behind a transcript of
// the given number of earlier entries. It stays flat as the reply and the transcript grow:
// only new bytes are sanitised and scanned for '\n', and finished entries are skipped.
func BenchmarkAnnounceDelta(b *testing.B) {
	for _, bc := range []struct {
		name           string
		prior          int
		lines          bool
		earlierEntries int
	}{
		{"open-line-after-1KiB", 1 << 10, false, 0},
		{"open-line-after-1MiB", 1 << 20, false, 0},
		{"lines-after-1KiB", 1 << 10, true, 0},
		{"lines-after-1MiB", 1 << 20, true, 0},
		{"after-10k-entries", 1 << 10, true, 10_000},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var d drafts
			for range bc.earlierEntries {
				d.add(&draft{Role: transcript.RoleAssistant, Text: "earlier\n"})
			}
			st := phase.State{Phase: phase.StreamingText}
			d.publish()
			a := NewAnnouncer(st, d.tr.Follow())
			unit := "token, "
			if bc.lines {
				unit = "tokens\n"
			}
			e := d.add(&draft{Role: transcript.RoleAssistant, Streaming: true, Text: strings.Repeat(unit, bc.prior/len(unit))})
			d.publish()
			a.Announce(st)
			deltas := []string{"Привет ", "world.\n"}
			if !bc.lines {
				deltas[1] = "world. "
			}
			var b2 strings.Builder
			b2.WriteString(e.Text)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				b2.WriteString(deltas[i%2])
				i++
				d.tr.SetReply(e.e, b2.String(), "")
				a.Announce(st)
			}
		})
	}
}
