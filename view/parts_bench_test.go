package view

import (
	"fmt"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// BenchmarkTokenAfterManyCards: one token appended to a reply that already holds cards
// cards, each between text parts (wire order), rendered at 120x40 following the tail. The cost
// per token must not grow with the parts above the open one.
func BenchmarkTokenAfterManyCards(b *testing.B) {
	for _, cards := range []int{2, 200} {
		b.Run(fmt.Sprintf("cards=%d", cards), func(b *testing.B) {
			var tr transcript.Transcript
			e := tr.Add(transcript.Spec{Role: transcript.RoleAssistant, Streaming: true})
			var text phase.Text
			for i := range cards {
				text = text.Append(fmt.Sprintf("Step %d: I look at the next file.\n\n", i))
				tr.SetReply(e, text.String(), "")
				id := fmt.Sprint("call_", i)
				tr.SetCall(e, phase.ToolCall{ID: id, Name: "read_file", Status: phase.CallDone, ArgsText: `{"path":"x"}`,
					Result: phase.ToolResult{Output: "line one\nline two\n"}})
			}
			r := NewRenderer(DefaultStyles())
			f := Frame{Width: 120, Height: 40, Entries: []*transcript.Entry{e}, State: phase.State{Phase: phase.StreamingText},
				Focus: phase.FocusStop, Composer: "┃\n┃\n┃", Help: streamingKeys}
			r.Render(f)
			b.ReportAllocs()
			for b.Loop() {
				text = text.Append("word ")
				tr.SetReply(e, text.String(), "")
				r.Render(f)
			}
		})
	}
}
