// Package format holds the small text formats every part of phasechat shows numbers, counts,
// durations and endpoints in, written once. Pure functions; the results are plain text but not
// sanitised (callers that show untrusted input pass it through view/safe).
package format

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
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
