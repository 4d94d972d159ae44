package app

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
)

type gathered struct{ recs []chat.Record }

func (g *gathered) Add(r chat.Record) { g.recs = append(g.recs, r) }

// A secret the model streams in two pieces is hidden from the log all the same, and the text
// around it reaches the log whole, in order.
func TestStreamedTextHidesASplitSecret(t *testing.T) {
	var next gathered
	r := newRedactingRecorder(secret.New("sk-verysecretvalue123"), &next)
	for _, piece := range []string{"the key is sk-very", "secretvalue123 and", " more"} {
		r.Add(chat.Record{Live: &chat.Live{What: chat.LiveText, Text: piece}})
	}
	r.Add(chat.Record{Live: &chat.Live{What: chat.LiveCall, ID: "a", Name: "n", Args: `{"k":"sk-verysecretvalue123"}`}})
	var text strings.Builder
	for _, rec := range next.recs {
		if rec.Live.What == chat.LiveText {
			text.WriteString(rec.Live.Text)
		}
		if strings.Contains(rec.Live.Text+rec.Live.Args, "verysecret") {
			t.Fatalf("a record keeps the secret: %+v", rec.Live)
		}
	}
	if got := text.String(); !strings.HasPrefix(got, "the key is ") || !strings.HasSuffix(got, " and more") {
		t.Fatalf("the text reads %q", got)
	}
	if last := next.recs[len(next.recs)-1].Live; last.What != chat.LiveCall {
		t.Fatalf("the call is not last: %+v", last)
	}
}

// A summary the model wrote of a conversation that held a secret does not carry it to the log.
func TestACompactionsSummaryHidesASecret(t *testing.T) {
	var next gathered
	r := newRedactingRecorder(secret.New("sk-verysecretvalue123"), &next)
	r.Add(chat.Record{Compaction: &chat.Compaction{Summary: "The key was sk-verysecretvalue123.", Turns: 2}})
	if len(next.recs) != 1 || next.recs[0].Compaction == nil || strings.Contains(next.recs[0].Compaction.Summary, "verysecret") ||
		next.recs[0].Compaction.Turns != 2 {
		t.Fatalf("records %+v", next.recs)
	}
}
