package transcript

// The change journal: every change a Transcript's methods make to what the conversation says
// is appended as a Change, in the order made, and each reader (Follow) reads the changes with
// its own cursor. A front end that speaks or prints the conversation as it grows follows the
// journal instead of comparing snapshots, so its cost is that of what changed.
//
// Bounds: the journal keeps only the changes some open reader has not read. With no reader it
// keeps nothing; when every reader has read to the end it is emptied, and its storage reused,
// so a steady stream of changes read after each one does not grow it nor allocate. A reader
// that stops reading must be closed, or the journal grows until it is. A change equal to the
// last one (the same kind, entry and card), which no reader has read yet, is not appended
// again: a reader reads the entry's state, not the change's size, so a burst of text deltas
// read once is one change.
//
// What is shown only (focus, folding) is not journalled: it changes how the conversation looks,
// not what it says.

// ChangeKind is what changed.
type ChangeKind uint8

const (
	EntryAdded     ChangeKind = iota + 1 // Entry was appended at Index
	TextChanged                          // Entry's text or reasoning grew, or was replaced
	CardChanged                          // Entry's card Card was added, or its call, summary, time or output changed
	EntryFinished                        // Entry's text is final (it no longer streams)
	EndChanged                           // how Entry's reply ended was set
	EntriesRemoved                       // the entries from Index on were removed; Entry is nil
)

// Change is one record of the journal. Entry may be one a later change removed.
type Change struct {
	Kind  ChangeKind
	Entry *Entry
	Index int // the entry's place in the transcript (entries only ever go from the end)
	Card  int // the card's index in Entry.Cards, for CardChanged; -1 else
}

// journal is a transcript's record of changes not yet read by all its readers.
type journal struct {
	log     []Change
	base    uint64 // the sequence number of log[0]
	readers []*Reader
	readTo  uint64 // the furthest cursor of any reader
}

// Reader reads a transcript's changes in order, each once. Not safe for concurrent use, and
// only with the transcript's own goroutine.
type Reader struct {
	t  *Transcript
	at uint64 // the sequence number of the next change to read
}

// Follow returns a reader of the changes made from now on. Close it once it is no longer read.
func (t *Transcript) Follow() *Reader {
	j := &t.journal
	r := &Reader{t: t, at: j.end()}
	j.readers = append(j.readers, r)
	return r
}

// Changes returns the changes made since the last call, oldest first, and moves past them.
// The slice is the journal's own: read it before the transcript changes again.
func (r *Reader) Changes() []Change {
	if r == nil || r.t == nil {
		return nil
	}
	j := &r.t.journal
	from := r.at - j.base
	out := j.log[from:len(j.log):len(j.log)]
	r.at = j.end()
	j.readTo = max(j.readTo, r.at)
	j.trim()
	return out
}

// Close stops the reader: the journal no longer keeps changes for it. Changes returns nothing
// after.
func (r *Reader) Close() {
	if r == nil || r.t == nil {
		return
	}
	j := &r.t.journal
	for i, x := range j.readers {
		if x == r {
			j.readers = append(j.readers[:i], j.readers[i+1:]...)
			break
		}
	}
	r.t = nil
	j.trim()
}

// end is the sequence number the next change will have.
func (j *journal) end() uint64 { return j.base + uint64(len(j.log)) }

// note appends c unless no reader would read it, or it repeats the last change unread.
func (j *journal) note(c Change) {
	if len(j.readers) == 0 {
		return
	}
	if n := len(j.log); n > 0 && j.log[n-1] == c && j.readTo < j.end() {
		return
	}
	j.log = append(j.log, c)
}

// trim drops the changes every reader has read. It moves nothing: the changes a reader was
// just handed stay where they are until the next change to the transcript.
func (j *journal) trim() {
	low := j.end()
	for _, r := range j.readers {
		low = min(low, r.at)
	}
	if drop := low - j.base; drop == uint64(len(j.log)) {
		j.log = j.log[:0] // every reader is at the end: reuse the storage
	} else {
		j.log = j.log[drop:]
	}
	j.base = low
}

// noteEntry records a change to entry e.
func (t *Transcript) noteEntry(k ChangeKind, e *Entry) {
	t.journal.note(Change{Kind: k, Entry: e, Index: e.index, Card: -1})
}

// noteCard records a change to e's card c (a pointer into e.cards).
func (t *Transcript) noteCard(e *Entry, c *Card) {
	for i := range e.cards {
		if &e.cards[i] == c {
			t.journal.note(Change{Kind: CardChanged, Entry: e, Index: e.index, Card: i})
			return
		}
	}
}
