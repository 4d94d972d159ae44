package sessionlog

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
)

// A closed log keeps no buffer of the text it gathered while a reply streamed.
func TestAClosedLogKeepsNoStreamedTextBuffer(t *testing.T) {
	w, err := createNow(t.TempDir() + "/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	w.Add(chat.Record{Live: &chat.Live{What: chat.LiveText, Text: strings.Repeat("streamed ", 1000)}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := cap(w.part.text); n > 0 {
		t.Fatalf("the closed log holds a %d-byte buffer", n)
	}
}
