package linemode

import (
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/safe"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

// splitAt cuts data into deltas: one of length c (up to what is left) for each byte c of cuts,
// then the rest. No cuts means one byte per delta.
func splitAt(data string, cuts []byte) []string {
	if len(cuts) == 0 {
		var out []string
		for i := range len(data) {
			out = append(out, data[i:i+1])
		}
		return out
	}
	var out []string
	for _, c := range cuts {
		n := min(int(c), len(data))
		out, data = append(out, data[:n]), data[n:]
	}
	return append(out, data)
}

// Seeds: testdata/fuzz/FuzzAnnounceText and every hostile input, in its deltas.

// FuzzAnnounceText streams a reply in arbitrary deltas and checks that what is printed is the
// whole reply sanitised at once (an escape or a rune split across deltas changes nothing),
// cut into its lines: trailing blanks dropped, leading blank lines skipped, the first line
// prefixed with "Assistant: ", a blank last line not printed; and that every line is clean.
func FuzzAnnounceText(f *testing.F) {
	for _, h := range safetest.HostileInputs {
		var cuts []byte
		for _, d := range h.Deltas {
			cuts = append(cuts, byte(min(len(d), 255)))
		}
		f.Add(h.Input, cuts)
	}
	f.Fuzz(func(t *testing.T, data string, cuts []byte) {
		var d drafts
		e := d.add(&draft{Role: transcript.RoleAssistant, Streaming: true})
		st := phase.State{Phase: phase.StreamingText}
		a := NewAnnouncer(st, d.tr.Follow())
		var got []string
		for _, delta := range splitAt(data, cuts) {
			e.Text += delta
			d.publish()
			got = append(got, a.Announce(st)...)
		}
		e.Streaming = false
		d.publish()
		got = append(got, a.Announce(st)...)

		var want []string
		for _, l := range strings.Split(safe.Text(data), "\n") {
			l = strings.TrimRight(l, " \t")
			if len(want) == 0 {
				if strings.TrimSpace(l) == "" {
					continue
				}
				l = "Assistant: " + l
			}
			want = append(want, l)
		}
		if n := len(want); n > 0 && want[n-1] == "" {
			want = want[:n-1]
		}
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("streamed %q in %v:\n%q\nwant\n%q", data, cuts, got, want)
		}
		for _, l := range got {
			if err := safetest.CheckClean(l); err != nil || strings.Contains(l, "\n") {
				t.Fatalf("line %q is not one clean line: %v", l, err)
			}
		}
	})
}

// Seeds: testdata/fuzz/FuzzKeyDecoder.

// FuzzKeyDecoder feeds bytes in arbitrary reads and checks: the keys do not depend on how the
// bytes were cut into reads (while no ESC wait expires between them); Feed never reports ESC
// itself (only Expire does, as KeyEsc); input without ESC comes out byte for byte.
func FuzzKeyDecoder(f *testing.F) {
	f.Fuzz(func(t *testing.T, data string, cuts []byte) {
		var whole keyDecoder
		want, wantWaiting := whole.Feed([]byte(data))
		var split keyDecoder
		var got []Key
		waiting := false
		for _, d := range splitAt(data, cuts) {
			var keys []Key
			keys, waiting = split.Feed([]byte(d))
			got = append(got, keys...)
		}
		if len(data) > 0 && waiting != wantWaiting {
			t.Fatalf("waiting %v in pieces, %v whole", waiting, wantWaiting)
		}
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("%q in pieces %v gave %q, whole %q", data, cuts, got, want)
		}
		for _, k := range got {
			if k == KeyEsc {
				t.Fatalf("Feed reported ESC for %q", data)
			}
		}
		if !strings.ContainsRune(data, 0x1b) && string(keysBytes(got)) != data {
			t.Fatalf("%q without ESC came out as %q", data, keysBytes(got))
		}
		if exp := split.Expire(); !waiting && exp != nil {
			t.Fatalf("Expire with nothing pending gave %q", exp)
		}
	})
}

func keysBytes(keys []Key) []byte {
	b := make([]byte, len(keys))
	for i, k := range keys {
		b[i] = byte(k)
	}
	return b
}
