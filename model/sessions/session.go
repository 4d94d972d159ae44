package sessions

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

// titleRunes caps a title's length.
const titleRunes = 72

// Title is text made fit to be a session's title: one line of its first words, sanitised and
// at most titleRunes runes.
func Title(text string) string {
	text = strings.Join(strings.FieldsFunc(safe.Text(text), unicode.IsSpace), " ")
	if r := []rune(text); len(r) > titleRunes {
		text = strings.TrimSpace(string(r[:titleRunes-1])) + "…"
	}
	return text
}

// Start says what a new (or resumed) session is held with.
type Start struct {
	Header   sessionlog.Header // written when the log is opened; never holds a key
	Provider string            // shown in the list, e.g. the endpoint's host
	Title    string            // empty: the first prompt's words
	// Resume continues this session's log; nil starts a new session.
	Resume *Meta
	// Seed is history to write first into a new session's log (a conversation resumed from
	// a log outside the store, or the one a fork copies).
	Seed []wire.Message
	// SeedModels are the models Seed's messages were held with ("" not known), each message's
	// in its place: the log names them before the messages (its header the first), and the
	// header's own model after them, so that a copied turn keeps its model and its price.
	SeedModels []string
	// SeedCompactions are Seed's compactions, in order, each written in its place among Seed's
	// messages (chat.Records).
	SeedCompactions []chat.Compaction
	// SeedTallies are what Seed's finished turns used, each written in its turn (chat.Records),
	// so that the new session resumes with them.
	SeedTallies []chat.SavedTally
	// Parent is the session a new one is a fork of (a copy of its history, Seed, under a new
	// id), recorded in the index entry and the log's header.
	Parent string
	// Hold is the conversation's hold when the caller took it already (to say who else holds
	// it before anything is shown); the session keeps it until Close. Without it the session
	// takes the hold before writing anything, and writes nothing when another process has it.
	Hold *Hold
	// OneShot marks the new session a one-shot run's (Meta.OneShot).
	OneShot bool
}

// Session records one conversation into the store. It is a perform.Recorder: Add only queues,
// into the session's log writer, which is the only queue: in its order it takes the hold and
// opens the log when the first line is to be written (a conversation in which nothing was said
// leaves nothing behind), writes the records, and after them has the index entry brought up to
// date by the session's updater (see entryUpdater), never waiting for the index's lock itself.
type Session struct {
	store *Store
	start Start
	id    string
	log   *sessionlog.Writer

	mu      sync.Mutex
	begun   bool // a record was added: the header (and a new session's seed) is queued first
	started bool // the log was opened and the entry written
	err     error
	closing sync.Once

	// What follows is touched only in the log's order (its goroutine), and by Close once the
	// log is closed.
	hold   *Hold
	opened bool // the log holds the header (and seed)
	// pending counts the updates of the entry queued and not run yet: the last of the records
	// added together brings the entry up to date for all of them.
	pending atomic.Int32
	updater *entryUpdater // started by the first update asked for; nil before

	// entryMu guards what follows: counted in the log's order, taken to the index by the
	// updater, and by Close once both ended.
	entryMu sync.Mutex
	listed  bool // the index has the entry: written by this session, or the one resumed
	meta    Meta // the entry as this process last wrote it, and the turns counted since
	// unsaved is how many turns were counted since the index last heard of them: an update adds
	// them to the entry's count as it finds it, so no process's turns are lost.
	unsaved int
	// unsavedUse is the tokens and cost counted since the index last heard of them, added the
	// same way.
	unsavedUse spent
	onError    func(err error) // see OnError; told once of an update of the entry given up
	toldEntry  bool
}

// Begin starts recording a conversation. Nothing is written until the first record.
func (s *Store) Begin(st Start) *Session {
	ss := &Session{store: s, start: st, hold: st.Hold}
	if st.Resume != nil {
		ss.id, ss.meta, ss.listed = st.Resume.ID, *st.Resume, true
	} else {
		now := time.Now().UTC()
		ss.id = newID(now)
		ss.meta = Meta{ID: ss.id, Title: Title(st.Title), Provider: st.Provider, Model: st.Header.Model, Created: now,
			Parent: st.Parent, OneShot: st.OneShot}
		ss.start.Header.Parent, ss.start.Header.OneShot = st.Parent, st.OneShot
	}
	ss.log = sessionlog.Later(ss.Path(), ss.takeHold)
	ss.log.KeepFilesWith(func(r chat.Record) error {
		err := ss.store.keepFiles(r)
		ss.fail(err)
		return err
	})
	return ss
}

// ID is the session's id.
func (ss *Session) ID() string { return ss.id }

// Path is the session's log.
func (ss *Session) Path() string { return ss.store.LogPath(ss.id) }

// Saved reports whether anything was written to the session's log by this process.
func (ss *Session) Saved() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.started
}

// Add queues one engine record; it may be called from a Bubble Tea Update. The first one is
// queued after the log's header (and a new session's seed). Once a record other than a
// request's step in flight (see chat.Live) is written, the index entry is brought up to date.
func (ss *Session) Add(r chat.Record) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if !ss.begun {
		ss.begun = true
		ss.queueOpening()
	}
	ss.log.Add(r)
	if r.Live == nil {
		ss.pending.Add(1)
		ss.log.Then(func() {
			ss.count(r)
			ss.settle()
		})
	}
}

// queueOpening queues what the log begins with: the header, then for a new session its entry
// in the index and its seed history. mu is held.
func (ss *Session) queueOpening() {
	if ss.start.Resume != nil {
		ss.log.Head(ss.start.Header)
		ss.log.Then(func() {
			ss.opened = true
			ss.markStarted()
		})
		return
	}
	head := ss.start.Header
	if m := chat.FirstModel(ss.start.SeedModels); m != "" {
		head.Model = m
	}
	ss.log.Head(head)
	ss.log.Then(func() { // the entry, as soon as the log is there: a listing shows it
		ss.opened = true
		ss.askRefresh()
	})
	seed := chat.Records(ss.start.Seed, ss.start.SeedModels, ss.start.SeedCompactions, ss.start.SeedTallies, time.Now().UTC())
	if head.Model != ss.start.Header.Model && ss.start.Header.Model != "" {
		seed = append(seed, chat.Record{Model: ss.start.Header.Model})
	}
	if len(seed) == 0 {
		return
	}
	for _, r := range seed {
		ss.log.Add(r)
	}
	ss.pending.Add(1)
	ss.log.Then(func() {
		for _, r := range seed {
			ss.count(r)
		}
		ss.settle()
	})
}

// takeHold holds the conversation for this session, unless Start gave the hold: the log
// runs it before it opens the file, and writes nothing when another process holds it.
func (ss *Session) takeHold() error {
	if ss.hold != nil {
		return nil
	}
	h, err := ss.store.Hold(ss.id)
	if err != nil {
		return err
	}
	ss.hold = h
	return nil
}

// settle has the index entry brought up to date once the last update queued comes.
func (ss *Session) settle() {
	if ss.pending.Add(-1) == 0 {
		ss.askRefresh()
	}
}

// Close writes what is queued, closes the log and brings the index entry up to date. It
// returns the first error the session met. It may be called again, from any goroutine: every
// call returns once all of that is done. Records added after it are dropped.
func (ss *Session) Close() error {
	ss.closing.Do(func() {
		ss.fail(ss.log.Close())
		ss.updater.stop()
		if ss.opened {
			ss.fail(ss.refresh())
		}
		ss.hold.Release()
	})
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.err
}

func (ss *Session) fail(err error) {
	if err == nil {
		return
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.err == nil {
		ss.err = err
	}
}

// OnError sets f to be told each time writing the session's log fails and, with a nil err,
// when what waited was written after all (sessionlog.Writer.OnError). f must not block.
// An update of the index entry given up (another process held the index's lock too long) is
// told to f too, once: the log is on disk all the same, and the entry catches up at the next
// update.
func (ss *Session) OnError(f func(err error)) {
	ss.entryMu.Lock()
	ss.onError = f
	ss.entryMu.Unlock()
	ss.log.OnError(f)
}

// Sync returns once every record added before it is written and on disk.
func (ss *Session) Sync() error { return ss.log.Sync() }

func (ss *Session) markStarted() {
	ss.mu.Lock()
	ss.started = true
	ss.mu.Unlock()
}

// Resumed describes a conversation loaded to be continued.
type Resumed struct {
	Meta     *Meta // nil for a log outside the store
	Path     string
	Log      sessionlog.Log
	Messages []wire.Message
}

// Load reads the log of a session in the store.
func (s *Store) Load(m Meta) (Resumed, error) {
	path := s.LogPath(m.ID)
	log, err := sessionlog.Read(path)
	if err != nil {
		return Resumed{}, fmt.Errorf("cannot resume session %s: %w", m.ID, err)
	}
	s.fillFiles(log.Messages)
	return Resumed{Meta: &m, Path: path, Log: log, Messages: log.Messages}, nil
}

// Recorder is where a conversation's records go (perform.Recorder has the same method).
type Recorder interface{ Add(chat.Record) }

// Continued is a saved conversation a front end switches to: its history and where its
// records go from now on.
type Continued struct {
	History []wire.Message
	// Compactions are the conversation's compactions, in order (chat.Chat.SetCompactions).
	Compactions []chat.Compaction
	// Tallies is what each finished turn used (chat.Chat.SetTallies).
	Tallies []chat.SavedTally
	Log     Recorder
	Notice  string
}
