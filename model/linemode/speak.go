package linemode

import (
	"strings"
	"unicode/utf8"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/safe"
)

// maxResultLine caps the part of a tool's result that is read out, in runes.
const maxResultLine = 100

// jsonPunctuation is what a screen reader would spell out one character at a time (a live
// region that speaks a curly brace helps nobody). Braces and brackets go; a double quote
// becomes a single one so quoted values still read as quoted.
var jsonPunctuation = strings.NewReplacer("{", "", "}", "", "[", "", "]", "", `"`, "'")

// spoken is untrusted text made fit to announce: one line (safe.Line), no JSON punctuation,
// no surrounding blanks. The result holds no control character, no '\n' and none of { } [ ] ".
func spoken(s string) string {
	return strings.TrimSpace(jsonPunctuation.Replace(safe.Line(s)))
}

// toolName is a card's name as announced: safe.ToolName, as the card and the status line
// write it, so they never disagree.
func toolName(c *transcript.Card) string { return safe.ToolName(c.Name()) }

func toolWaiting(c *transcript.Card) string {
	return "Tool: " + toolName(c) + " is waiting for your approval"
}

func toolStarted(c *transcript.Card) string {
	if summary := spoken(c.Summary()); summary != "" {
		return "Tool: " + toolName(c) + " started: " + summary
	}
	return "Tool: " + toolName(c) + " started"
}

func toolDone(c *transcript.Card) string {
	head := "Tool: " + toolName(c) + " done in " + format.SpokenDuration(c.Duration())
	if line := firstSpokenLine(c.Result()); line != "" {
		return head + ": " + line
	}
	return head + ", no output"
}

// toolFailed announces a call that ended in error: "failed" when it had been announced as
// started, "not run" when it never ran (declined, refused, bad arguments, stopped first). The
// reason a call did not run is phasechat's own and is read whole, not cut like a result.
func toolFailed(c *transcript.Card, started bool) string {
	if !started {
		line := ""
		for l := range strings.SplitSeq(c.Result(), "\n") {
			if line = spoken(l); line != "" {
				break
			}
		}
		line = strings.TrimSpace(trimPrefixFold(line, "Not run:"))
		if line == "" {
			line = "no reason given"
		}
		return "Tool: " + toolName(c) + " not run: " + line
	}
	line := firstSpokenLine(c.Result())
	head := "Tool: " + toolName(c) + " failed"
	if c.Duration() > 0 {
		head += " in " + format.SpokenDuration(c.Duration())
	}
	if line == "" {
		return head
	}
	return head + ": " + line
}

// firstSpokenLine is the first non-blank line of a tool's result, spoken, capped at maxResultLine
// runes (a cut line ends in "…").
func firstSpokenLine(result string) string {
	for line := range strings.SplitSeq(result, "\n") {
		line = spoken(line)
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) <= maxResultLine {
			return line
		}
		cut, n := 0, 0
		for i := range line {
			if n == maxResultLine-1 {
				cut = i
				break
			}
			n++
		}
		return strings.TrimSpace(line[:cut]) + "…"
	}
	return ""
}

// reasoningLine says how much reasoning there was without reading it out.
func reasoningLine(reasoning string) string {
	n := utf8.RuneCountInString(reasoning)
	unit := "characters"
	if n == 1 {
		unit = "character"
	}
	return "Reasoning: " + format.Thousands(n) + " " + unit + " (not read out)."
}

func trimPrefixFold(s, prefix string) string {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):]
	}
	return s
}
