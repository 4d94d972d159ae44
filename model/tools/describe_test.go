package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDescribe(t *testing.T) {
	r := newTestRegistry(t, "")
	long := strings.Repeat("a", 60)
	for _, tc := range []struct{ name, args, want string }{
		{"read_file", `{"path": "README.md"}`, "read_file path=README.md"},
		{"read_file", `{"max_bytes": 200, "path": "docs/a b.md"}`, "read_file max_bytes=200 path=docs/a b.md"},
		{"now", ``, "now"},
		{"now", `{}`, "now"},
		{"t", `{"s": "line one\nline two\ttab"}`, "t s=line one↵line two tab"},
		{"t", `{"empty": "", "n": null, "ok": true, "f": -1.5e3}`, `t empty="" n=null ok=true f=-1.5e3`},
		{"t", `{"o": {"k": 1}, "e": {}, "l": [1, 2, 3], "one": ["x"], "none": []}`, "t o={…} e={} l=[3 items] one=[1 item] none=[]"},
		{"t", `{"s": "` + long + `"}`, "t s=" + strings.Repeat("a", maxDescribeValue-1) + "…"},
		{"t", `"bare"`, "t value=bare"},
		{"t", `[1, 2]`, "t value=[2 items]"},
		{"t", `{"a": 1`, "t (the arguments are not valid JSON)"},
		{"t", `{"a": 1} {}`, "t (the arguments are not valid JSON)"},
		{"t", `nope`, "t (the arguments are not valid JSON)"},
		{"two\nlines", `{"k\nk": 1}`, "two↵lines k↵k=1"},
	} {
		if got := r.Describe(Call{Name: tc.name, Arguments: tc.args}); got != tc.want {
			t.Errorf("Describe(%s %s) = %q, want %q", tc.name, tc.args, got, tc.want)
		}
		wantArgs := strings.TrimPrefix(strings.TrimPrefix(tc.want, foldLines(tc.name)), " ")
		if got := r.DescribeArgs(Call{Name: tc.name, Arguments: tc.args}); got != wantArgs {
			t.Errorf("DescribeArgs(%s %s) = %q, want %q", tc.name, tc.args, got, wantArgs)
		}
	}
	var many strings.Builder
	many.WriteString("{")
	for i := range 50 {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`"key": "value"`)
	}
	many.WriteString("}")
	got := r.Describe(Call{Name: "t", Arguments: many.String()})
	if utf8.RuneCountInString(got) != maxDescribeLine || !strings.HasSuffix(got, "…") {
		t.Errorf("a long summary is not cut to %d runes: %q", maxDescribeLine, got)
	}
}

func FuzzDescribe(f *testing.F) {
	for _, seed := range []string{``, `{}`, `{"path": "README.md"}`, `"x"`, `[1,{"a":[]}]`, `{"a": "\n\t"}`, `{"a":1`, `{"a":1}}`} {
		f.Add("read_file", seed)
	}
	f.Fuzz(func(t *testing.T, name, args string) {
		got := describe(Call{Name: name, Arguments: args})
		if strings.ContainsAny(got, "\n\r") {
			t.Fatalf("summary spans lines: %q", got)
		}
		if n := utf8.RuneCountInString(got); n > maxDescribeLine+len(" (the arguments are not valid JSON)") {
			t.Fatalf("summary of %d runes: %q", n, got)
		}
	})
}
