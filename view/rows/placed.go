package rows

import (
	"sort"
	"unsafe"
)

// placed is a run of n lines a Source draws when they are read, from line at of a builder's
// lines; thru is how many lines the runs placed so far hold, this one included.
type placed struct {
	src         Source
	at, n, thru int
}

// mixed is a builder's lines that hold placed runs: the others back to back in buf, ends[j]
// where the jth of them ends.
type mixed struct {
	buf    string
	ends   []int32
	placed []placed
}

// placedAt is the last placed run that starts at or before line i; -1 for none.
func (m *mixed) placedAt(i int) int {
	return sort.Search(len(m.placed), func(k int) bool { return m.placed[k].at > i }) - 1
}

func (m *mixed) Row(i int) string {
	j := i
	if k := m.placedAt(i); k >= 0 {
		p := m.placed[k]
		if i < p.at+p.n {
			return p.src.Row(i - p.at)
		}
		j -= p.thru
	}
	start := int32(0)
	if j > 0 {
		start = m.ends[j-1]
	}
	return m.buf[start:m.ends[j]]
}

func (m *mixed) AppendRows(dst []string, lo, hi int) []string {
	hi = min(hi, len(m.ends)+m.placed[len(m.placed)-1].thru)
	for i := lo; i < hi; {
		if k := m.placedAt(i); k >= 0 && i < m.placed[k].at+m.placed[k].n {
			p := m.placed[k]
			end := min(hi, p.at+p.n)
			dst = p.src.AppendRows(dst, i-p.at, end-p.at)
			i = end
			continue
		}
		dst = append(dst, m.Row(i))
		i++
	}
	return dst
}

func (m *mixed) Size() int {
	return int(unsafe.Sizeof(*m)) + len(m.buf) + 4*cap(m.ends) + placedSize(m.placed[:cap(m.placed)])
}

// shifted is src's lines from line by on.
type shifted struct {
	src Source
	by  int
}

func (s shifted) Row(i int) string { return s.src.Row(i + s.by) }

func (s shifted) AppendRows(dst []string, lo, hi int) []string {
	return s.src.AppendRows(dst, lo+s.by, hi+s.by)
}

func (s shifted) Size() int { return s.src.Size() }

func placedSize(ps []placed) int {
	n := len(ps) * int(unsafe.Sizeof(placed{}))
	for _, p := range ps {
		if p.src != nil {
			n += p.src.Size()
		}
	}
	return n
}
