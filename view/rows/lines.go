package rows

import "unsafe"

// Lines is an immutable run of rendered screen lines stored compactly: the lines back to back
// in one string, and where each ends. A line holds no '\n' and is at most the width it was
// rendered for.
//
// A run taken from a Source holds no text itself: its n lines are the source's, drawn when
// they are first read.
type Lines struct {
	buf  string
	ends []int32 // ends[i] is the byte offset in buf where line i ends
	src  Source
	n    int
}

// Source is a run whose lines are drawn on demand (a markdown document's complete lines,
// a page at a time). Line i, once read, never changes.
type Source interface {
	Row(i int) string
	// appendRows appends lines lo..hi-1 (those of them it has) to dst.
	AppendRows(dst []string, lo, hi int) []string
	// size is the memory the source holds, for the cache budget.
	Size() int
}

// FromSource is the first n lines of src.
func FromSource(src Source, n int) Lines { return Lines{src: src, n: n} }

// Len is how many lines the run holds.
func (l Lines) Len() int {
	if l.src != nil {
		return l.n
	}
	return len(l.ends)
}

// At is line i, 0 ≤ i < Len().
func (l Lines) At(i int) string {
	if l.src != nil {
		return l.src.Row(i)
	}
	start := int32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.buf[start:l.ends[i]]
}

// Size is the memory the run holds, for the cache budget.
func (l Lines) Size() int {
	if l.src != nil {
		return l.src.Size()
	}
	return len(l.buf) + 4*cap(l.ends)
}

// Of stores ls compactly.
func Of(ls ...string) Lines {
	var b Builder
	for _, s := range ls {
		b.Add(s)
	}
	return b.Compact()
}

// Builder appends lines. A Lines value taken with Snapshot stays valid and unchanged after
// later appends: bytes and ends below a snapshot's length are never written again. A counting
// builder keeps no text, only how many lines were added (counted). Its text grows by a quarter
// once large, not by doubling: it holds at most bigRun or a quarter more than its text. A
// Builder must not be copied after its first Add.
type Builder struct {
	b         []byte
	ends      []int32
	placed    []placed // runs of lines drawn on demand, in order
	countOnly bool
	counted   int
}

// NewCounter is a counting builder.
func NewCounter() Builder { return Builder{countOnly: true} }

// Counting reports whether b is a counting builder.
func (b *Builder) Counting() bool { return b.countOnly }

// Len is how many lines were added (or counted) so far.
func (b *Builder) Len() int { return len(b.ends) + b.placedLines() + b.counted }

func (b *Builder) placedLines() int {
	if len(b.placed) == 0 {
		return 0
	}
	return b.placed[len(b.placed)-1].thru
}

// AddSource appends src's first n lines, which src draws when they are read (only counts
// them, in a counting builder): a run whose drawing is large is held as what draws it.
func (b *Builder) AddSource(src Source, n int) {
	if b.countOnly {
		b.counted += n
		return
	}
	if n > 0 {
		b.placed = append(b.placed, placed{src: src, at: b.Len(), n: n, thru: b.placedLines() + n})
	}
}

// Add appends line (only counts it, in a counting builder).
func (b *Builder) Add(line string) {
	if b.countOnly {
		b.counted++
		return
	}
	if cap(b.b)-len(b.b) < len(line) {
		n := len(b.b) + len(line)
		grown := make([]byte, len(b.b), min(2*n+64, max(n+n/4, bigRun)))
		copy(grown, b.b)
		b.b = grown
	}
	b.b = append(b.b, line...)
	b.ends = append(b.ends, int32(len(b.b)))
}

// bigRun is the size past which a Builder's text grows by a quarter instead of doubling.
const bigRun = 256 << 10

// Bytes is the size of the text added so far (0 in a counting builder).
func (b *Builder) Bytes() int { return len(b.b) }

// Size is the memory the builder holds, spare room included, for the cache budget.
func (b *Builder) Size() int { return cap(b.b) + 4*cap(b.ends) + placedSize(b.placed[:cap(b.placed)]) }

// AddCount adds n lines to a counting builder, which is the only kind that may be given a
// count instead of lines.
func (b *Builder) AddCount(n int) { b.counted += n }

// AddAll appends every line of l.
func (b *Builder) AddAll(l Lines) { b.AddRange(l, 0, l.Len()) }

// AddRange appends lines lo..hi-1 of l; those a source of l's placed runs draws on demand are
// placed again, not drawn.
func (b *Builder) AddRange(l Lines, lo, hi int) {
	mx, ok := l.src.(*mixed)
	if !ok {
		for i := lo; i < hi; i++ {
			b.Add(l.At(i))
		}
		return
	}
	for i := lo; i < hi; {
		k := mx.placedAt(i)
		if k >= 0 && i < mx.placed[k].at+mx.placed[k].n {
			p := mx.placed[k]
			n := min(hi, p.at+p.n) - i
			b.AddSource(shifted{src: p.src, by: i - p.at}, n)
			i += n
			continue
		}
		b.Add(mx.Row(i))
		i++
	}
}

// Snapshot is the lines added so far, sharing the builder's storage.
func (b *Builder) Snapshot() Lines {
	l := Lines{buf: unsafe.String(unsafe.SliceData(b.b), len(b.b)), ends: b.ends[:len(b.ends):len(b.ends)]}
	if len(b.placed) == 0 {
		return l
	}
	return FromSource(&mixed{buf: l.buf, ends: l.ends, placed: b.placed[:len(b.placed):len(b.placed)]}, b.Len())
}

// Shrink drops the builder's spare capacity once it stops growing. Snapshots taken before
// keep the old storage; take a new one.
func (b *Builder) Shrink() {
	if cap(b.b) > len(b.b) {
		b.b = append([]byte(nil), b.b...)
	}
	if cap(b.ends) > len(b.ends) {
		b.ends = append([]int32(nil), b.ends...)
	}
	if cap(b.placed) > len(b.placed) {
		b.placed = append([]placed(nil), b.placed...)
	}
}

// Compact returns the lines with no spare capacity, for runs that will not grow.
func (b *Builder) Compact() Lines {
	if len(b.placed) > 0 {
		mx := &mixed{buf: string(b.b), ends: append([]int32(nil), b.ends...), placed: append([]placed(nil), b.placed...)}
		return FromSource(mx, b.Len())
	}
	if len(b.ends) == 0 {
		return Lines{}
	}
	return Lines{buf: string(b.b), ends: append([]int32(nil), b.ends...)}
}

// AppendRange appends lines lo..hi-1 of the runs segs, taken as one sequence.
func AppendRange(dst []string, segs []Lines, lo, hi int) []string {
	base := 0
	for _, s := range segs {
		n := s.Len()
		switch {
		case base+n <= lo || base >= hi:
		case s.src != nil:
			dst = s.src.AppendRows(dst, max(lo-base, 0), min(hi-base, n))
		default:
			for j := max(lo-base, 0); j < min(hi-base, n); j++ {
				dst = append(dst, s.At(j))
			}
		}
		base += n
		if base >= hi {
			break
		}
	}
	return dst
}
