package sessions

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/view/safe"
)

// Hit is one session whose user or assistant messages hold the text searched for.
type Hit struct {
	Meta    Meta
	Role    string // of the first message that matched
	Snippet string // that message's words around the first match, on one line
	Matches int    // messages that matched
}

// Search finds the sessions whose user or assistant messages contain text, ignoring case,
// most recently updated first. It reads every log; a log that cannot be read is skipped, and
// said on Notices.
func (s *Store) Search(text string) ([]Hit, error) {
	all, err := s.List()
	if err != nil {
		return nil, err
	}
	needle := strings.ToLower(text)
	var hits []Hit
	for _, m := range all {
		log, err := sessionlog.Read(s.LogPath(m.ID))
		if err != nil {
			if s.Notices != nil {
				fmt.Fprintf(s.Notices, "phasechat: session %s not searched: %s\n", m.ID, safe.Line(err.Error()))
			}
			continue
		}
		var hit Hit
		for _, msg := range log.Messages {
			if msg.Role != "user" && msg.Role != "assistant" {
				continue
			}
			lower := strings.ToLower(msg.Text())
			i := strings.Index(lower, needle)
			if i < 0 {
				continue
			}
			if hit.Matches == 0 {
				hit = Hit{Meta: m, Role: msg.Role, Snippet: snippet(msg.Text(), lower, i, len(needle))}
			}
			hit.Matches++
		}
		if hit.Matches > 0 {
			hits = append(hits, hit)
		}
	}
	return hits, nil
}

// snippet is about 30 runes either side of the match at [i, i+n) of lower (content lowered),
// on one line. Lowering can change byte lengths, so the cut is made on lower when the two
// differ in length.
func snippet(content, lower string, i, n int) string {
	src := content
	if len(lower) != len(content) {
		src = lower
	}
	start, end := i, min(len(src), i+n)
	for k := 0; k < 30 && start > 0; k++ {
		_, size := utf8.DecodeLastRuneInString(src[:start])
		start -= size
	}
	for k := 0; k < 30 && end < len(src); k++ {
		_, size := utf8.DecodeRuneInString(src[end:])
		end += size
	}
	out := Title(src[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(src) {
		out += "…"
	}
	return out
}
