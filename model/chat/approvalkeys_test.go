package chat

import "testing"

func TestApprovalKeys(t *testing.T) {
	type step struct {
		key      string // "" with quiet: the timer of the last generation fires; "?q" a new question
		quiet    bool
		answer   bool
		d        Decision
		notTaken bool // quiet: the front end must say a key was not taken
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"typing straight on answers nothing", []step{{key: "?1"}, {key: "t"}, {key: "h"}, {key: "a"}, {key: "n"}, {key: "k"}, {key: "s"}}},
		{"a key after the quiet answers", []step{{key: "?1"}, {quiet: true}, {key: "y", answer: true, d: Allow}}},
		{"n declines", []step{{key: "?1"}, {quiet: true}, {key: "n", answer: true, d: Deny}}},
		{"a lowercase a is never always", []step{{key: "?1"}, {quiet: true}, {key: "a"}, {key: "a"}}},
		{"capital A is always", []step{{key: "?1"}, {quiet: true}, {key: "A", answer: true, d: AllowAlways}}},
		{"typing after the quiet disarms", []step{{key: "?1"}, {quiet: true}, {key: "t"}, {key: "y"}, {quiet: true, notTaken: true}, {key: "y", answer: true, d: Allow}}},
		{"a new question waits again", []step{{key: "?1"}, {quiet: true}, {key: "?2"}, {key: "y"}}},
		{"an answer too soon is said not taken once", []step{{key: "?1"}, {key: "y"}, {quiet: true, notTaken: true}, {key: "x"}, {quiet: true, notTaken: true}, {key: "n", answer: true, d: Deny}}},
		{"no key, nothing to say", []step{{key: "?1"}, {quiet: true}, {key: "y", answer: true, d: Allow}}},
		{"the capital hint is enough", []step{{key: "?1"}, {quiet: true}, {key: "a"}, {quiet: true}, {key: "A", answer: true, d: AllowAlways}}},
		{"a new question forgets the keys of the last", []step{{key: "?1"}, {key: "y"}, {key: "?2"}, {quiet: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g ApprovalKeys
			gen := 0
			for i, s := range tc.steps {
				switch {
				case s.quiet:
					if got := g.Quiet(gen); got != s.notTaken {
						t.Fatalf("step %d (quiet): not taken %v, want %v", i, got, s.notTaken)
					}
				case s.key[0] == '?':
					if start, n := g.Arm(s.key); start {
						gen = n
					}
				default:
					v := g.Key(s.key)
					if v.Restart {
						gen = v.Gen
					}
					if v.Answer != s.answer || (v.Answer && v.Decision != s.d) {
						t.Fatalf("step %d (%q): %+v, want answer %v %v", i, s.key, v, s.answer, s.d)
					}
				}
			}
		})
	}
}

func TestApprovalKeysIgnoreAStaleTimer(t *testing.T) {
	var g ApprovalKeys
	_, first := g.Arm("1")
	v := g.Key("x") // typing restarts the wait
	g.Quiet(first)  // the first timer fires late
	if g.Key("y").Answer {
		t.Fatal("a timer older than the last key armed the question")
	}
	g.Quiet(v.Gen + 1)
	if !g.Key("y").Answer {
		t.Fatal("the latest timer did not arm it")
	}
}
