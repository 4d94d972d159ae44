// Package format holds the small text formats every part of phasechat shows numbers, counts,
// durations, endpoints and untrusted one-line text in, written once. Pure functions; the
// results are plain text but not sanitised (callers that show untrusted input pass it through
// view/safe).
//
// Durations come in three forms, one per place they are read: [Duration] for a measured time
// on the screen (a card's elapsed time), [SpokenDuration] for a screen reader, and
// [WrittenDuration] for a duration inside a sentence (a timeout, a stall, a wait).
package format

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Thousands writes n with commas between groups of three digits: 1234567 -> "1,234,567".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Duration is d for the screen, compact: "12ms" under a second, "1.5s" under a minute, else
// "1m05s".
func Duration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Round(time.Millisecond).Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// SpokenDuration is d for a screen reader, in words it reads well: whole milliseconds under
// ten seconds ("12 ms"), else seconds ("12.5 s").
func SpokenDuration(d time.Duration) string {
	if d < 10*time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// WrittenDuration is d as people write it in a sentence, to the second from one second up:
// "500ms", "2s", "1m30s", "2m", "1h5m".
func WrittenDuration(d time.Duration) string {
	if d < time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	d = d.Round(time.Second)
	var b strings.Builder
	for _, part := range []struct {
		n    int
		unit string
	}{{int(d / time.Hour), "h"}, {int(d/time.Minute) % 60, "m"}, {int(d/time.Second) % 60, "s"}} {
		if part.n > 0 {
			b.WriteString(strconv.Itoa(part.n) + part.unit)
		}
	}
	return b.String()
}

// OneLine is s with every run of white space (line breaks included) made one space and the
// ends trimmed, cut to at most max runes (max >= 1), the last being "…" when something was cut.
// It is for text from elsewhere (a server's error, a tool's output) quoted inside a sentence.
func OneLine(s string, max int) string {
	s = strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max-1]) + "…"
}

// Sentence is s made to start a sentence: its first letter upper-cased, the rest as it is.
func Sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// FirstLine is the first line of s that is not empty, and how many lines follow it, not
// counting a final empty one. The line is returned as it is (white space and control
// characters kept).
func FirstLine(s string) (line string, more int) {
	s = strings.TrimLeft(s, "\n")
	line, rest, _ := strings.Cut(s, "\n")
	if rest = strings.TrimRight(rest, "\n"); rest != "" {
		more = strings.Count(rest, "\n") + 1
	}
	return line, more
}

// Host is the host (and port) of an endpoint URL, or the text itself when it is not a URL with
// a host. User info ("user:secret@") is never part of the result.
func Host(endpoint string) string {
	endpoint = strings.TrimSpace(endpoint)
	if endpoint == "" {
		return ""
	}
	if !strings.Contains(endpoint, "://") {
		endpoint = "//" + endpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		if i := strings.LastIndexByte(endpoint, '@'); i >= 0 {
			endpoint = endpoint[i+1:]
		}
		return strings.TrimPrefix(endpoint, "//")
	}
	return u.Host
}

// Bytes is n bytes for people: "512 B", "1 KB", "4.2 MB" (powers of 1024, one decimal under 10).
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, u := float64(n)/unit, "KB"
	for _, next := range []string{"MB", "GB"} {
		if v < unit {
			break
		}
		v, u = v/unit, next
	}
	if v < 10 && v != float64(int64(v)) {
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + u
	}
	return strconv.FormatInt(int64(v+0.5), 10) + " " + u
}
