package bench

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"

	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/internal/bench/benchdata"
	"github.com/phasechat/phasechat/stream/internal/bench/floor"
)

// floorStreams are the bodies the floor is measured on: 20,000 text chunks, and 256 KiB of
// tool-call arguments in 4-byte fragments.
var floorStreams = []struct {
	name string
	body func() []byte
}{
	{"text20k", func() []byte { return benchdata.TextStream(20000) }},
	{"args256KiBx4", func() []byte { return benchdata.ArgumentStream(256<<10, 4) }},
}

func TestFloorReadsWhatPhasechatReads(t *testing.T) {
	for _, s := range floorStreams {
		body := s.body()
		ours, err := stream.Replay(bytes.NewReader(body), "", stream.ReplayJSON, io.Discard, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, unmarshal := range []func([]byte, any) error{json.Unmarshal, gojson.Unmarshal} {
			r, err := floor.Read(bytes.NewReader(body), unmarshal)
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Content) != ours.Message.Text() || len(r.Calls) != len(ours.Message.Calls()) ||
				r.FinishReason != ours.FinishReason || r.CompletionTokens != ours.Usage.CompletionTokens {
				t.Fatalf("%s: floor and phasechat disagree", s.name)
			}
			for i, c := range r.Calls {
				if string(c.Arguments) != ours.Message.Calls()[i].Arguments {
					t.Fatalf("%s: call %d arguments differ", s.name, i)
				}
			}
		}
	}
}

// BenchmarkFloor is the floor with encoding/json and with goccy/go-json, and phasechat's
// `replay --json` (stream.Replay: framing, decoding, reassembly, the phase reducer and the
// JSON output), on the same bodies. Compare ratios within one run.
func BenchmarkFloor(b *testing.B) {
	for _, s := range floorStreams {
		body := s.body()
		run := func(name string, read func() error) {
			b.Run(s.name+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					if err := read(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		run("std", func() error { _, err := floor.Read(bytes.NewReader(body), json.Unmarshal); return err })
		run("goccy", func() error { _, err := floor.Read(bytes.NewReader(body), gojson.Unmarshal); return err })
		run("phasechat", func() error {
			_, err := stream.Replay(bytes.NewReader(body), "", stream.ReplayJSON, io.Discard, nil)
			return err
		})
	}
}

// BenchmarkFloorRatio reads each body with the goccy floor and with phasechat alternately,
// once each per iteration (which goes first alternates too, and each starts after a
// collection), and reports phasechat's time over the floor's. On a shared machine the load
// moves between runs taken apart; reads taken in turns see the same load. Its ns/op and
// allocations count both reads and the collections before them: phasechat/goccy is its figure.
func BenchmarkFloorRatio(b *testing.B) {
	for _, s := range floorStreams {
		body := s.body()
		b.Run(s.name, func(b *testing.B) {
			reads := [2]func() error{
				func() error { _, err := floor.Read(bytes.NewReader(body), gojson.Unmarshal); return err },
				func() error {
					_, err := stream.Replay(bytes.NewReader(body), "", stream.ReplayJSON, io.Discard, nil)
					return err
				},
			}
			var took [2]time.Duration
			for i := 0; b.Loop(); i++ {
				for k := range 2 {
					which := (i + k) % 2
					runtime.GC()
					start := time.Now()
					if err := reads[which](); err != nil {
						b.Fatal(err)
					}
					took[which] += time.Since(start)
				}
			}
			b.ReportMetric(float64(took[1])/float64(took[0]), "phasechat/goccy")
		})
	}
}
