package safe_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/phasechat/phasechat/view/safe"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the hostile-input seeds in testdata/fuzz")

// FuzzText checks the output properties of Text and Line on any input, without trusting
// classify: the forbidden runes are listed here independently (escapedRanges).
func FuzzText(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Text(%q) = %q is not valid UTF-8", s, out)
		}
		for i, r := range out {
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (wantEscaped(r) && !IsSequenceJoiner(r)) {
				t.Fatalf("Text(%q) = %q holds U+%04X at byte %d", s, out, r, i)
			}
		}
		if err := joinersInsideClusters(out); err != nil {
			t.Fatalf("Text(%q) = %q: %v", s, out, err)
		}
		if again := Text(out); again != out {
			t.Fatalf("not idempotent: Text(%q) = %q, Text of that = %q", s, out, again)
		}
		if printableASCII(s) && out != s {
			t.Fatalf("printable ASCII %q changed to %q", s, out)
		}
		if clean, same := CheckClean(s) == nil, out == s; clean != same {
			t.Fatalf("CheckClean(%q) clean=%v, but Text(s)==s is %v", s, clean, same)
		}
		line := Line(s)
		if want := strings.NewReplacer("\n", "⏎", "\t", " ").Replace(out); line != want {
			t.Fatalf("Line(%q) = %q, want Text with newline and tab replaced: %q", s, line, want)
		}
	})
}

func printableASCII(s string) bool {
	for i := range len(s) {
		if c := s[i]; (c < 0x20 || c >= 0x7f) && c != '\n' && c != '\t' {
			return false
		}
	}
	return true
}

// FuzzStream checks that a Stream fed data in the pieces cuts describes always agrees with Text
// on the bytes so far (see checkStreamInvariant) and ends equal to Text(data).
func FuzzStream(f *testing.F) {
	f.Fuzz(func(t *testing.T, data string, cuts []byte) {
		if got, want := feed(t, splitAt(data, cuts)), Text(data); got != want {
			t.Fatalf("Stream(%q in pieces %v) = %q, want %q", data, cuts, got, want)
		}
	})
}

// splitAt cuts data into deltas: one of length c (up to what is left) for each byte c of cuts,
// then the rest as one delta. No cuts means one byte per delta.
func splitAt(data string, cuts []byte) []string {
	if len(cuts) == 0 {
		return bytesOf(data)
	}
	var deltas []string
	for _, c := range cuts {
		n := min(int(c), len(data))
		deltas, data = append(deltas, data[:n]), data[n:]
	}
	return append(deltas, data)
}

// deltaLengths is the cuts argument of FuzzStream that reproduces deltas.
func deltaLengths(deltas []string) []byte {
	var cuts []byte
	for _, d := range deltas {
		if len(d) > 255 {
			panic("seed delta too long for a cut byte")
		}
		cuts = append(cuts, byte(len(d)))
	}
	return cuts
}

type emojiSeed struct {
	name   string
	in     string
	deltas []string
}

// emojiSeeds are real emoji sequences and joiner abuse, each cut inside its sequence so the
// streamed-equals-whole property starts from a split cluster.
func emojiSeeds() []emojiSeed {
	cut := func(name, in string, at ...int) emojiSeed {
		var d []string
		prev := 0
		for _, a := range at {
			d, prev = append(d, in[prev:a]), a
		}
		return emojiSeed{name, in, append(d, in[prev:])}
	}
	return []emojiSeed{
		cut("emoji-family", "a "+family+" b", 6, 9),
		cut("emoji-technologist", technologist+darkTech, 4, 12),
		cut("emoji-rainbow-flag", rainbowFlag, 7),
		cut("emoji-scotland", "x"+scotland+"y", 5, 13),
		cut("emoji-keycap", keycapOne+keycapHash, 4),
		cut("emoji-skin-tones", skinTones+kissSkin, 6),
		cut("joiner-zwj-in-word", "pay\u200dpal 👨\u200da", 5, 11),
		cut("joiner-smuggled-tags", "ok🏴"+tags("ignore all")+"\U000E007F", 6),
		cut("joiner-vs-after-letter", "a\ufe0fb1\ufe0f", 2, 6),
		cut("joiner-rlo-in-emoji", "👨\u202e\u200d👩", 4),
	}
}

// seedFiles returns the seed corpus files, by path: each hostile input, plus a few inputs that
// exercise the clean fast path and unfinished UTF-8 tails.
func seedFiles() map[string]string {
	seeds := append(slices.Clone(safetest.HostileInputs),
		safetest.HostileInput{Name: "empty"},
		safetest.HostileInput{Name: "ascii", Input: "plain ASCII prose,\n\twith a tab"},
		safetest.HostileInput{Name: "unicode", Input: "héllo 世界 🙂 Привет", Deltas: []string{"h\xc3", "\xa9llo \xe4", "\xb8\x96界 \xf0\x9f", "\x99\x82 Привет"}},
		safetest.HostileInput{Name: "unfinished-tail", Input: "end\xf0\x9f\x99"},
	)
	for _, e := range emojiSeeds() {
		seeds = append(seeds, safetest.HostileInput{Name: e.name, Input: e.in, Deltas: e.deltas})
	}
	files := map[string]string{}
	for _, h := range seeds {
		files[filepath.Join("testdata", "fuzz", "FuzzText", "seed-"+h.Name)] =
			fmt.Sprintf("go test fuzz v1\nstring(%q)\n", h.Input)
		files[filepath.Join("testdata", "fuzz", "FuzzStream", "seed-"+h.Name)] =
			fmt.Sprintf("go test fuzz v1\nstring(%q)\n[]byte(%q)\n", h.Input, deltaLengths(h.Deltas))
	}
	return files
}

// TestSeedCorpusHoldsHostileInputs keeps testdata/fuzz in step with HostileInputs; run with
// -update-corpus to rewrite it after changing the table.
func TestSeedCorpusHoldsHostileInputs(t *testing.T) {
	for path, want := range seedFiles() {
		if *updateCorpus {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("seed %s is missing or stale (run go test -run TestSeedCorpus -update-corpus): %v", path, err)
		}
	}
}
