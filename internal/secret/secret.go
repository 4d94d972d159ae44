// Package secret hides the credentials of a run (API keys, key-command output, header values,
// URL credentials) in text that leaves the process: the screen, logs, recordings, tool input,
// error messages. A Set is built at start-up from everything configured and passed down to each
// place that writes something out; Redact is the one rule they all apply.
//
// The rule: a secret of at least MinSubstring bytes is replaced by Redacted wherever it occurs,
// even inside a longer word; a shorter one (a local server started with "--api-key test") only
// where it stands as a whole token, so that "latest" keeps its letters while "Bearer test" and
// "key=test" still lose the key. Each secret is also hidden in the forms it takes when written
// into a URL or a JSON string.
package secret

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Redacted is what stands in place of a secret.
const Redacted = "[redacted]"

// MinSubstring is the length from which a secret is hidden even inside a longer word.
const MinSubstring = 8

// Set is the secrets of one run. The zero value and a nil *Set hold none and redact nothing.
// Add and the other methods are safe for concurrent use; a secret added later applies to every
// Redact from then on, and to Streams started afterwards.
type Set struct {
	mu   sync.Mutex // serialises writers; readers load list
	list atomic.Pointer[list]
}

// list is an immutable snapshot: the secrets, longest first, and which bytes start one.
type list struct {
	values  []string
	first   [256]bool
	byFirst [256][]string // the values starting with each byte, longest first
	max     int
}

// New returns a Set holding values (empty values are ignored).
func New(values ...string) *Set {
	s := &Set{}
	s.Add(values...)
	return s
}

// Add adds secrets, each with its URL-escaped and JSON-escaped forms.
func (s *Set) Add(values ...string) {
	if s == nil {
		return
	}
	var all []string
	for _, v := range values {
		if v == "" {
			continue
		}
		all = append(all, v, url.QueryEscape(v), url.PathEscape(v))
		if b, err := json.Marshal(v); err == nil {
			all = append(all, string(b[1:len(b)-1]))
		}
	}
	s.addRaw(all)
}

// AddHeader adds a configured header's value as a secret: the whole value and, for a
// "<scheme> <credentials>" value such as "Bearer sk-…", the credentials; for Basic, also the
// decoded user name and password.
func (s *Set) AddHeader(value string) {
	if s == nil {
		return
	}
	value = strings.TrimSpace(value)
	s.Add(value)
	scheme, cred, ok := strings.Cut(value, " ")
	if !ok {
		return
	}
	cred = strings.TrimSpace(cred)
	s.Add(cred)
	if strings.EqualFold(scheme, "basic") {
		if dec, err := base64.StdEncoding.DecodeString(cred); err == nil {
			user, pass, _ := strings.Cut(string(dec), ":")
			s.Add(pass)
			s.Add(string(dec))
			if len(user) >= MinSubstring {
				s.Add(user)
			}
		}
	}
}

// AddURL adds the credentials a URL carries: its password (and user name when it has no
// password or is long enough to be a token), the two in the Basic encoding they are sent in, and the values of key-like query parameters
// (api-key, key, token, sig, …). An unparsable URL adds nothing.
func (s *Set) AddURL(raw string) {
	u, err := url.Parse(raw)
	if s == nil {
		return
	}
	if err != nil {
		return
	}
	if u.User != nil {
		user := u.User.Username()
		pass, hasPass := u.User.Password()
		s.Add(pass)
		if !hasPass || len(user) >= MinSubstring {
			s.Add(user)
		}
		if hasPass { // the Authorization: Basic form the HTTP client sends them in
			s.Add(base64.StdEncoding.EncodeToString([]byte(user + ":" + pass)))
		}
	}
	for name, vals := range u.Query() {
		if CredentialParam(name) {
			s.Add(vals...)
		}
	}
}

// CredentialParam reports whether a query parameter or header name usually carries a
// credential: it names a key, token, secret, password, signature or authorisation.
func CredentialParam(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"key", "token", "secret", "password", "passwd", "sig", "auth", "credential", "session"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return n == "code"
}

// CredentialHeader reports whether an HTTP header's value is a credential: Authorization,
// Cookie, and every name that CredentialParam recognises (X-Api-Key, X-Auth-Token, …), but not
// a header such as X-Title, whose value is a word that must stay readable everywhere.
func CredentialHeader(name string) bool {
	n := strings.ToLower(name)
	return n == "cookie" || n == "x-goog-api-key" || CredentialParam(n)
}

func (s *Set) addRaw(values []string) {
	if len(values) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.list.Load()
	seen := map[string]bool{}
	var merged []string
	if old != nil {
		merged = append(merged, old.values...)
	}
	merged = append(merged, values...)
	l := &list{}
	for _, v := range merged {
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		l.values = append(l.values, v)
		l.first[v[0]] = true
		l.max = max(l.max, len(v))
	}
	// longest first: "Bearer sk-…" is replaced whole before its "sk-…" part
	sort.SliceStable(l.values, func(i, j int) bool { return len(l.values[i]) > len(l.values[j]) })
	for _, v := range l.values {
		l.byFirst[v[0]] = append(l.byFirst[v[0]], v)
	}
	s.list.Store(l)
}

func (s *Set) snapshot() *list {
	if s == nil {
		return nil
	}
	return s.list.Load()
}

// Empty reports whether the set holds no secret.
func (s *Set) Empty() bool {
	l := s.snapshot()
	return l == nil || len(l.values) == 0
}

// With returns a new Set holding s's secrets and extra ones; s is unchanged.
func (s *Set) With(extra ...string) *Set {
	out := &Set{}
	if l := s.snapshot(); l != nil {
		out.addRaw(l.values)
	}
	out.Add(extra...)
	return out
}

// Redact returns text with every secret replaced by Redacted.
func (s *Set) Redact(text string) string {
	l := s.snapshot()
	if l == nil || len(l.values) == 0 {
		return text
	}
	out, _, _ := l.scan(-1, text, true)
	return out
}

// RedactBytes is Redact for bytes; it returns b itself when nothing was hidden.
func (s *Set) RedactBytes(b []byte) []byte {
	l := s.snapshot()
	if l == nil || len(l.values) == 0 || !l.mayContain(b) {
		return b
	}
	out, _, _ := l.scan(-1, string(b), true)
	if out == string(b) {
		return b
	}
	return []byte(out)
}

// Contains reports whether text holds a secret, by the rule of Redact.
func (s *Set) Contains(text string) bool { return s.Redact(text) != text }

func (l *list) mayContain(b []byte) bool {
	for _, c := range b {
		if l.first[c] {
			return true
		}
	}
	return false
}

// scan redacts s, whose preceding byte is prev (-1: none). Unless final, it stops before a
// tail that may still become a secret (a prefix of one, or a short one whose end is not yet
// known to be a token boundary) and returns that tail as rest, untouched; last is the byte
// before rest (or prev when nothing was consumed).
func (l *list) scan(prev int, s string, final bool) (out, rest string, last int) {
	var b strings.Builder
	done := 0 // s[:done] is written to b
	i := 0
	for i < len(s) {
		if !l.first[s[i]] {
			i++
			continue
		}
		matched, hold := 0, false
		for _, v := range l.byFirst[s[i]] {
			if len(s)-i < len(v) {
				if !final && strings.HasPrefix(v, s[i:]) {
					hold = true
				}
				continue
			}
			if !strings.HasPrefix(s[i:], v) {
				continue
			}
			if len(v) < MinSubstring {
				before := prev
				if i > 0 {
					before = int(s[i-1])
				}
				if before >= 0 && isTokenByte(byte(before)) {
					continue
				}
				end := i + len(v)
				if end == len(s) && !final {
					hold = true
					continue
				}
				if end < len(s) && isTokenByte(s[end]) {
					continue
				}
			}
			matched = len(v)
			break
		}
		if hold { // a longer secret may still begin here: wait rather than leave its end visible
			b.WriteString(s[done:i])
			if i > 0 {
				prev = int(s[i-1])
			}
			return b.String(), s[i:], prev
		}
		if matched > 0 {
			b.WriteString(s[done:i])
			b.WriteString(Redacted)
			i += matched
			done = i
			continue
		}
		i++
	}
	if len(s) > 0 {
		prev = int(s[len(s)-1])
	}
	if done == 0 {
		return s, "", prev
	}
	b.WriteString(s[done:])
	return b.String(), "", prev
}

func isTokenByte(c byte) bool {
	return c >= 0x80 || c == '-' || c == '_' ||
		'0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// Stream redacts a text that arrives in pieces (a streamed reply), so that a secret split
// across two pieces is still hidden: Write returns what can be shown of the text so far and
// keeps back a tail that may still turn out to be a secret; Flush returns that tail at the
// end. The secrets are those of the Set when the Stream was made. Not safe for concurrent use.
type Stream struct {
	l       *list
	pending string
	prev    int
}

// Stream starts redacting a text that arrives in pieces.
func (s *Set) Stream() *Stream { return &Stream{l: s.snapshot(), prev: -1} }

// Write takes the next piece and returns the text that is now safe to pass on.
func (st *Stream) Write(piece string) string {
	if st.l == nil || len(st.l.values) == 0 {
		return piece
	}
	out, rest, last := st.l.scan(st.prev, st.pending+piece, false)
	st.pending, st.prev = rest, last
	return out
}

// Pending reports whether Write has kept back text that Flush would return.
func (st *Stream) Pending() bool { return st.pending != "" }

// Flush ends the text and returns what Write kept back, redacted.
func (st *Stream) Flush() string {
	if st.pending == "" {
		return ""
	}
	out, _, last := st.l.scan(st.prev, st.pending, true)
	st.pending, st.prev = "", last
	return out
}

// Error returns err with the secrets hidden from its text; errors.Is and As still see through
// it. A nil err, or one without a secret, is returned as it is.
func (s *Set) Error(err error) error {
	if err == nil || !s.Contains(err.Error()) {
		return err
	}
	return redactedError{err, s}
}

type redactedError struct {
	err error
	set *Set
}

func (r redactedError) Error() string { return r.set.Redact(r.err.Error()) }
func (r redactedError) Unwrap() error { return r.err }
