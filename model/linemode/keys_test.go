package linemode

import (
	"reflect"
	"testing"
)

// TestKeyDecoder feeds reads (one string per read) and expires the ESC wait where a read is
// "", the way the session's timer does after escWait without input.
func TestKeyDecoder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reads []string
		want  []Key
	}{
		{"plain keys", []string{"y", "n", "a", "\n", "\t", "\x04"}, []Key{'y', 'n', 'a', '\n', '\t', 0x04}},
		{"several keys in one read", []string{"yn\r"}, []Key{'y', 'n', '\r'}},
		{"a lone ESC is Esc once the wait is over", []string{"\x1b", ""}, []Key{KeyEsc}},
		{"Esc twice", []string{"\x1b", "", "\x1b", ""}, []Key{KeyEsc, KeyEsc}},
		{"an arrow key is no Esc", []string{"\x1b[A"}, nil},
		{"an arrow key split across reads", []string{"\x1b", "[", "A"}, nil},
		{"CSI with parameters, then a key", []string{"\x1b[1;5Dy"}, []Key{'y'}},
		{"SS3 (application cursor keys)", []string{"\x1bOA", "n"}, []Key{'n'}},
		{"Alt+y is not y", []string{"\x1by"}, nil},
		{"ESC ESC then the wait: one Esc", []string{"\x1b\x1b", ""}, []Key{KeyEsc}},
		{"an unfinished CSI is dropped at the wait", []string{"\x1b[1;", ""}, nil},
		{"a control byte cuts a CSI short and is a key", []string{"\x1b[1\n"}, []Key{'\n'}},
		{"a CSI cut by ESC: the ESC starts anew", []string{"\x1b[1\x1b", ""}, []Key{KeyEsc}},
		{"bytes of a UTF-8 letter are keys (ignored by the session)", []string{"é"}, []Key{0xc3, 0xa9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d keyDecoder
			var got []Key
			waiting := false
			for _, r := range tc.reads {
				if r == "" {
					if !waiting {
						t.Fatalf("expired while not waiting")
					}
					got = append(got, d.Expire()...)
					waiting = false
					continue
				}
				var keys []Key
				keys, waiting = d.Feed([]byte(r))
				got = append(got, keys...)
			}
			if waiting {
				t.Fatalf("still waiting at the end")
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("keys %q, want %q", got, tc.want)
			}
		})
	}
}

func TestKeyDecoderWaitsOnlyInsideSequences(t *testing.T) {
	var d keyDecoder
	if _, waiting := d.Feed([]byte("y")); waiting {
		t.Fatal("a plain key made the decoder wait")
	}
	if _, waiting := d.Feed([]byte("\x1b")); !waiting {
		t.Fatal("a lone ESC did not make the decoder wait")
	}
	if _, waiting := d.Feed([]byte("[A")); waiting {
		t.Fatal("a finished sequence left the decoder waiting")
	}
	if keys := d.Expire(); keys != nil {
		t.Fatalf("Expire with nothing pending gave %q", keys)
	}
}
