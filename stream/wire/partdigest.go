package wire

import "hash/maphash"

// partDigest stands for the text a part's deltas brought so far without holding it: its length
// and a seeded 64-bit hash of it. Whether a later whole text starts with that text is then told
// apart wrongly with odds of 2^-64, by a seed drawn per decoder that no server can know.
type partDigest struct {
	n    int
	hash maphash.Hash
}

func (p *partDigest) reset() {
	p.n = 0
	p.hash.Reset()
}

func (p *partDigest) add(s string) {
	p.n += len(s)
	p.hash.WriteString(s)
}

// prefixOf reports whether the part's text so far is the start of whole.
func (p *partDigest) prefixOf(whole string) bool {
	return len(whole) >= p.n && maphash.String(p.hash.Seed(), whole[:p.n]) == p.hash.Sum64()
}
