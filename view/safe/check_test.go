package safe_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/phasechat/phasechat/view/safe"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

func TestCheckClean(t *testing.T) {
	for _, tc := range []struct {
		in     string
		offset int
		reason string
	}{
		{"plain\ttext\n", -1, ""},
		{"héllo 世界 🙂", -1, ""},
		{"ab\x1b[31m", 2, "C0 control"},
		{"\r", 0, "C0 control"},
		{"x\x7f", 1, "DEL control"},
		{"é\u009b", 2, "C1 control"},
		{"ok\x9b", 2, "invalid UTF-8 byte"},
		{"a\u202e", 1, "bidi control"},
		{"a\u2067", 1, "bidi control"},
		{"a\u200b", 1, "zero-width or invisible format character"},
		{"a\u00ad", 1, "zero-width or invisible format character"},
		{"a\u2028", 1, "Unicode line or paragraph separator"},
		{"a\ufff9", 1, "interlinear annotation character"},
		{"a\U000E0041", 1, "tag character"},
		{"first \x1b then \x07", 6, "C0 control"}, // the first one is reported
	} {
		err := CheckClean(tc.in)
		if tc.offset < 0 {
			if err != nil {
				t.Errorf("CheckClean(%q) = %v, want nil", tc.in, err)
			}
			continue
		}
		var ue *UnsafeError
		if !errors.As(err, &ue) {
			t.Errorf("CheckClean(%q) = %v, want an *UnsafeError", tc.in, err)
			continue
		}
		if ue.Offset != tc.offset || ue.Reason != tc.reason {
			t.Errorf("CheckClean(%q): offset %d reason %q, want %d %q", tc.in, ue.Offset, ue.Reason, tc.offset, tc.reason)
		}
	}
}

func TestCheckCleanMessage(t *testing.T) {
	err := CheckClean("status: done \x1b]0;pwned\x07 rest of the line")
	if err == nil {
		t.Fatal("CheckClean missed an ESC")
	}
	msg := err.Error()
	for _, want := range []string{"C0 control", "U+001B", "at byte 13", `"status: done \x1b]0;pwned\a rest o"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if CheckClean(msg) != nil {
		t.Errorf("the message itself is unsafe to print: %q", msg)
	}
	if msg := CheckClean("\xff").Error(); !strings.Contains(msg, "invalid UTF-8 byte 0xFF") {
		t.Errorf("invalid byte message %q does not name the byte", msg)
	}
}

func TestCheckCleanAgreesWithText(t *testing.T) {
	for _, h := range safetest.HostileInputs {
		for _, s := range []string{h.Input, Text(h.Input), Line(h.Input)} {
			if clean, same := CheckClean(s) == nil, Text(s) == s; clean != same {
				t.Errorf("%s: CheckClean(%q) clean=%v but Text(s)==s is %v", h.Name, s, clean, same)
			}
		}
	}
}
