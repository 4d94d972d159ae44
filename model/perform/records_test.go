package perform

import (
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
)

type listRecorder struct{ records []chat.Record }

func (r *listRecorder) Add(rec chat.Record) { r.records = append(r.records, rec) }

// LogRecords keeps the records, in order, and hands back every other effect, in order; with
// no log the records are dropped all the same.
func TestLogRecordsKeepsRecordsAndReturnsTheRest(t *testing.T) {
	effects := func() []chat.Effect { // LogRecords takes over the slice it is given
		return []chat.Effect{chat.Record{Model: "a"}, chat.OpenStream{Req: 1}, chat.Record{Model: "b"}, chat.RunTool{Req: 2}}
	}
	var log listRecorder
	rest := LogRecords(effects(), &log)
	if want := []chat.Record{{Model: "a"}, {Model: "b"}}; !reflect.DeepEqual(log.records, want) {
		t.Fatalf("records %+v, want %+v", log.records, want)
	}
	want := []chat.Effect{chat.OpenStream{Req: 1}, chat.RunTool{Req: 2}}
	if !reflect.DeepEqual(rest, want) {
		t.Fatalf("rest %+v, want %+v", rest, want)
	}
	if rest := LogRecords(effects(), nil); !reflect.DeepEqual(rest, want) {
		t.Fatalf("with no log: rest %+v, want %+v", rest, want)
	}
}
