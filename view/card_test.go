package view

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view/rows"
)

func linesSlice(l rows.Lines) []string {
	var out []string
	for i := range l.Len() {
		out = append(out, l.At(i))
	}
	return out
}

func TestRenderCard(t *testing.T) {
	sixty := strings.Repeat("line\n", 60)
	tests := []struct {
		name string
		card draftCard
		want []string
	}{
		{"pending without arguments", draftCard{Name: "read_file", Status: phase.CallPending}, []string{
			"  ◌ pending · read_file · waiting for arguments…"}},
		{"pending receiving arguments", draftCard{Name: "read_file", Status: phase.CallPending, ArgsBytes: 1234}, []string{
			"  ◌ pending · read_file · receiving arguments…",
			"    1.2\u00a0KiB"}},
		{"pending ignores expand", draftCard{Name: "w", Status: phase.CallPending, ArgsBytes: 10, Args: `{"a":`, Expanded: true}, []string{
			"  ◌ pending · w · receiving arguments… 10\u00a0B"}},
		{"running with summary", draftCard{Name: "read_file", Status: phase.CallRunning, Summary: "path=README.md"}, []string{
			"  ◐ running · read_file · path=README.md"}},
		{"done with result and duration", draftCard{Name: "read_file", Status: phase.CallDone, Summary: "path=README.md",
			Result: "# phasechat\nmore\n", Duration: 1500 * time.Millisecond}, []string{
			"  ✓ done · read_file · path=README.md · 1.5s",
			"    → # phasechat (+1 more line)"}},
		{"done without output", draftCard{Name: "touch", Status: phase.CallDone, Duration: 2 * time.Millisecond}, []string{
			"  ✓ done · touch · 2ms",
			"    → (no output)"}},
		{"error", draftCard{Name: "read_file", Status: phase.CallError, Summary: "path=nope", Result: "open nope: no such file",
			Duration: 3 * time.Millisecond}, []string{
			"  ✗ error · read_file · path=nope · 3ms",
			"    → open nope: no such file"}},
		{"asking", draftCard{Name: "sh", Status: phase.CallRunning, Summary: "cmd=ls", Asking: true}, []string{
			"  ? waiting for approval · sh · cmd=ls",
			"    Allow? y runs it · n declines · A always"}},
		{"expanded: arguments decoded in order, result whole", draftCard{Name: "sh", Status: phase.CallDone,
			Args: `{"cmd":"ls","env":{"A":"1"},"list":[],"n":1.5}`, Result: sixty, Expanded: true, Duration: 61 * time.Second},
			append([]string{
				"  ✓ done · sh · 1m01s",
				"    arguments:",
				"      cmd: ls",
				"      env:",
				"        A: 1",
				"      list: []",
				"      n: 1.5",
				"    result:"}, slices.Repeat([]string{"      line"}, 60)...)},
		{"asking first of three", draftCard{Name: "sh", Status: phase.CallRunning, Summary: "cmd=ls", Asking: true, AskPlace: 1, AskOf: 3}, []string{
			"  ? waiting for approval: 1 of 3 · sh · cmd=ls",
			"    Allow this one first? y runs it · n declines ·",
			"    A always"}},
		{"asking queued", draftCard{Name: "sh", Status: phase.CallRunning, Summary: "cmd=pwd", Asking: true, AskPlace: 2, AskOf: 3}, []string{
			"  ◌ waiting: 2 of 3 · sh · cmd=pwd"}},
		{"declined", draftCard{Name: "sh", Status: phase.CallError, Summary: "cmd=rm", Result: "The user declined to run this tool.", Declined: true}, []string{
			"  ○ declined · sh · cmd=rm"}},
		{"running with elapsed time and output", draftCard{Name: "build", Status: phase.CallRunning, Summary: "target=all",
			Elapsed: 12*time.Second + 400*time.Millisecond, Output: "one\ntwo\tx\nthree\nfour \n"}, []string{
			"  ◐ running · build · target=all · 12s",
			"    │ two    x",
			"    │ three",
			"    │ four"}},
		{"running under a second shows no time", draftCard{Name: "build", Status: phase.CallRunning, Elapsed: 900 * time.Millisecond}, []string{
			"  ◐ running · build"}},
		{"expanded running shows arguments only", draftCard{Name: "sh", Status: phase.CallRunning, Args: `not json {`, Expanded: true}, []string{
			"  ◐ running · sh",
			"    arguments:",
			"      not json {"}},
		{"expanded error", draftCard{Name: "sh", Status: phase.CallError, Args: `{}`, Result: "boom", Expanded: true}, []string{
			"  ✗ error · sh",
			"    arguments:",
			"      (empty)",
			"    error:",
			"      boom"}},
		{"long header wraps under the body indent", draftCard{Name: "search", Status: phase.CallRunning,
			Summary: "query=the quick brown fox jumps over the lazy dog"}, []string{
			"  ◐ running · search · query=the quick brown fox",
			"    jumps over the lazy dog"}},
		{"unknown status and empty name", draftCard{Status: "weird"}, []string{"  • weird · a tool"}},
		{"wide characters fit", draftCard{Name: "翻訳", Status: phase.CallRunning, Summary: "文=" + strings.Repeat("中", 30)}, []string{
			"  ◐ running · 翻訳 ·",
			"    文=中中中中中中中中中中中中中中中中中中中中中",
			"    中中中中中中中中中"}},
	}
	st := newTheme(PlainStyles())
	for _, tt := range tests {
		got := linesSlice(renderCard(st, tt.card.card(), false, 50))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
		for _, l := range got {
			if w := cells(l); w > 50 {
				t.Errorf("%s: line %q is %d cells wide", tt.name, l, w)
			}
		}
	}
}

func TestPrettyJSON(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`{"b":1,"a":"x"}`, "b: 1\na: x", true},
		{`{"s":"two\nlines"}`, "s:\n  two\n  lines", true},
		{`{"o":{"p":[true,false,null]}}`, "o:\n  p:\n    - true\n    - false\n    - null", true},
		{`[{"a":1},[]]`, "-\n  a: 1\n- []", true},
		{`"just a string"`, "just a string", true},
		{`12345678901234567890`, "12345678901234567890", true},
		{`{"esc":"\u001b[2J"}`, "esc: \x1b[2J", true},
		{`{}`, "", true},
		{`{"a":1} {"b":2}`, "", false},
		{`{"a":`, "", false},
		{`not json`, "", false},
		{``, "", false},
	}
	for _, tt := range tests {
		got, ok := prettyJSON(tt.in)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("%q: got %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFormats(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{formatSize(0), "0\u00a0B"}, {formatSize(1023), "1023\u00a0B"}, {formatSize(1024), "1.0\u00a0KiB"},
		{formatSize(3 << 20), "3.0\u00a0MiB"},
		{format.Duration(340 * time.Millisecond), "340ms"}, {format.Duration(2500 * time.Millisecond), "2.5s"},
		{format.Duration(125 * time.Second), "2m05s"},
		{format.Thousands(0), "0"}, {format.Thousands(999), "999"}, {format.Thousands(1000), "1,000"}, {format.Thousands(1234567), "1,234,567"},
		{format.Thousands(-1234), "-1,234"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q want %q", tt.got, tt.want)
		}
	}
}

func cells(s string) int { return ansi.StringWidth(s) }
