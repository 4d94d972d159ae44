package app

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

// OpenStore opens the sessions folder of the data directory.
func OpenStore() (*sessions.Store, error) {
	dir, err := sessions.DefaultDir()
	if err != nil {
		return nil, err
	}
	return sessions.Open(dir)
}

// Conversation is what a chat continues and where it is recorded. In the full-screen chat it
// also switches conversations (/new, the session picker): session is always the current one,
// and every one begun is closed at the end.
type Conversation struct {
	history []wire.Message
	// compaction is the continued conversation's last compaction; nil when it has none.
	compactions []chat.Compaction
	tallies     []chat.SavedTally // the continued conversation's finished turns, priced
	notice      string
	session     *sessions.Session  // nil: not saved in the store
	log         *sessionlog.Writer // the --log file (openLogFile)
	// priceOf is the price of a model a log names (Settings.priceOf); nil for none known.
	priceOf func(model string) *budget.Price

	store   *sessions.Store
	start   sessions.Start // how a new conversation is begun
	mu      sync.Mutex     // guards session, ended and trouble, from commands
	ended   []*sessions.Session
	trouble func(error) // told of each failed write of the session's log or the --log file
	secrets *secret.Set // hidden from every record
}

// History is the conversation continued; nil for a new one.
func (c *Conversation) History() []wire.Message { return c.history }

// Compactions are the continued conversation's compactions, in order
// (chat.Chat.SetCompactions).
func (c *Conversation) Compactions() []chat.Compaction { return c.compactions }

// Tallies is what each finished turn of the continued conversation used
// (chat.Chat.SetTallies).
func (c *Conversation) Tallies() []chat.SavedTally { return c.tallies }

// Notice says what was continued, and why the conversation is not kept if saving failed; "".
func (c *Conversation) Notice() string { return c.notice }

// Saving reports whether the conversation is kept in the store (and can be switched).
func (c *Conversation) Saving() bool { return c.session != nil }

// Session is the current session's id, "" when the conversation is not kept.
func (c *Conversation) Session() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session == nil {
		return ""
	}
	return c.session.ID()
}

// openConversation loads the conversation to continue (--continue, --resume ID|FILE) and opens
// its recording (the store unless --no-save, and --log FILE).
func openConversation(s *Settings, head sessionlog.Header, provider string) (*Conversation, error) {
	c := &Conversation{priceOf: s.priceOf}
	var store *sessions.Store
	fromStore := s.fromStore()
	unsaved := "" // why the conversation will not be kept although saving is on
	if !s.notKept() || fromStore {
		var err error
		if store, err = OpenStore(); err != nil {
			if fromStore {
				return nil, err
			}
			// Saving is a convenience: the chat goes on without it, and says so.
			store, unsaved = nil, "This conversation is not being saved: "+err.Error()
		} else {
			store.Notices = s.StoreNotices
		}
	}
	var resumed *sessions.Resumed
	var hold *sessions.Hold // the resumed conversation, held for this process
	fork := s.Fork
	noSave := s.notKept()
	switch {
	case fromStore:
		var m sessions.Meta
		var err error
		if s.Continue {
			m, err = store.Latest()
		} else {
			m, err = store.Find(s.Resume)
			if errors.Is(err, sessions.ErrNotFound) || errors.Is(err, sessions.ErrAmbiguous) {
				err = UsageError{fmt.Errorf("--resume %s: %w", s.Resume, err)}
			}
		}
		if err != nil {
			return nil, err
		}
		r, err := store.Load(m)
		if err != nil {
			return nil, err
		}
		resumed = &r
		c.notice = fmt.Sprintf("Resumed session %s: %s (%d messages).", m.ID, safe.Line(m.Title), len(r.Messages))
		if !noSave {
			if hold, err = holdOrChoose(store, m.ID, s.OnHeld, &fork); err != nil {
				return nil, err
			}
		}
		switch {
		case fork:
			c.notice = fmt.Sprintf("Continuing session %s in a copy: %s (%d messages).", m.ID, safe.Line(m.Title), len(r.Messages))
		case hold == nil && !noSave:
			noSave = true
			c.notice = fmt.Sprintf("Viewing session %s without saving: %s (%d messages).", m.ID, safe.Line(m.Title), len(r.Messages))
		}
	case s.Resume != "":
		log, err := sessionlog.Read(s.Resume)
		if err != nil {
			return nil, err
		}
		sessions.FillFiles(sessions.FilesBeside(s.Resume), log.Messages)
		resumed = &sessions.Resumed{Path: s.Resume, Log: log, Messages: log.Messages}
		c.notice = fmt.Sprintf("Resumed %d messages from %s.", len(log.Messages), safe.Line(s.Resume))
	}
	if resumed != nil {
		c.history, c.compactions, c.tallies = resumed.Messages, resumed.Log.Compactions, c.priced(resumed.Log.Tallies)
		if resumed.Log.CutOff {
			c.notice += " Its last line was cut off and was skipped."
		}
		if note := resumed.Log.SkippedNote(); note != "" {
			c.notice += " The log is damaged: " + note + "."
		}
	}
	if unsaved != "" {
		c.notice = strings.TrimSpace(c.notice + " " + unsaved)
	}
	if store != nil && !noSave {
		st := sessions.Start{Header: head, Provider: provider, Title: s.Title, OneShot: s.OneShot}
		switch {
		case resumed != nil && resumed.Meta != nil && fork:
			st.Seed, st.SeedModels, st.SeedCompactions, st.SeedTallies = resumed.Messages, resumed.Log.MessageModels, c.compactions, c.tallies
			st.Parent = resumed.Meta.ID
		case resumed != nil && resumed.Meta != nil:
			st.Resume, st.Hold = resumed.Meta, hold
		case resumed != nil:
			st.Seed, st.SeedModels, st.SeedCompactions, st.SeedTallies = resumed.Messages, resumed.Log.MessageModels, c.compactions, c.tallies
		}
		c.session = store.Begin(st)
		c.store, c.start = store, sessions.Start{Header: head, Provider: provider}
	}
	if s.LogPath != "" {
		w, err := openLogFile(s.LogPath)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.log = w
		c.log.Head(head)
	}
	return c, nil
}

// priced is tallies, each with its model's price (see chat.SavedTally).
func (c *Conversation) priced(tallies []chat.SavedTally) []chat.SavedTally {
	if c.priceOf == nil || len(tallies) == 0 {
		return tallies
	}
	out := make([]chat.SavedTally, len(tallies))
	for i, t := range tallies {
		if t.Model != "" && t.Price == nil {
			t.Price = c.priceOf(t.Model)
		}
		out[i] = t
	}
	return out
}

// holdOrChoose holds conversation id for this process, unless *fork says to continue it in a
// copy. When another process holds it, onHeld chooses (a fork sets *fork; viewing gives a nil
// hold); without onHeld the error says who holds it.
func holdOrChoose(store *sessions.Store, id string, onHeld func(*sessions.HeldError) sessions.HeldChoice, fork *bool) (*sessions.Hold, error) {
	if *fork {
		return nil, nil
	}
	hold, err := store.Hold(id)
	var held *sessions.HeldError
	if !errors.As(err, &held) || onHeld == nil {
		return hold, err
	}
	switch onHeld(held) {
	case sessions.HeldFork:
		*fork = true
		return nil, nil
	case sessions.HeldView:
		return nil, nil
	}
	return nil, err
}

// fromStore reports whether the conversation continued is one of the store's (--continue,
// --resume ID) rather than a log file's or none.
func (s *Settings) fromStore() bool { return s.Continue || (s.Resume != "" && !isFile(s.Resume)) }

// isFile reports whether a --resume argument names a log file rather than a session id.
func isFile(arg string) bool {
	if strings.ContainsRune(arg, os.PathSeparator) || strings.HasSuffix(arg, ".jsonl") {
		return true
	}
	fi, err := os.Stat(arg)
	return err == nil && fi.Mode().IsRegular()
}

// Recorder is where the chat's records go: the session, the --log file, both or neither,
// with the run's secrets hidden.
func (c *Conversation) Recorder() perform.Recorder {
	if r := c.recorders(); r != nil {
		return newRedactingRecorder(c.secrets, r)
	}
	return nil
}

func (c *Conversation) recorders() perform.Recorder {
	var rs multiRecorder
	if c.session != nil {
		rs = append(rs, c.session)
	}
	if c.log != nil {
		rs = append(rs, c.log)
	}
	switch len(rs) {
	case 0:
		return nil
	case 1:
		return rs[0]
	}
	return rs
}

// OnLogTrouble has f told at once of each failed write of the session's log (of every session
// switched to) and of the --log file, and, nil, of their recovery.
func (c *Conversation) OnLogTrouble(f func(error)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trouble = f
	if c.session != nil {
		c.session.OnError(f)
	}
	if c.log != nil {
		c.log.OnError(f)
	}
}

// switchTo makes next the current session, continuing history; the one before is closed in
// the background (and waited for by close). The --log file goes on with the conversation on
// screen: it gets a header that begins another conversation, then history (and the models it
// was held with, cps and the usage of tallies in their places), then a switch back to the
// model in use.
func (c *Conversation) switchTo(next *sessions.Session, history []wire.Message, models []string, cps []chat.Compaction, tallies []chat.SavedTally) perform.Recorder {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.session; old != nil {
		c.ended = append(c.ended, old)
		go old.Close()
	}
	c.session = next
	if next != nil && c.trouble != nil {
		next.OnError(c.trouble)
	}
	if c.log != nil {
		head := c.start.Header
		head.New = true
		if m := chat.FirstModel(models); m != "" {
			head.Model = m
		}
		c.log.Head(head)
		log := newRedactingRecorder(c.secrets, c.log)
		for _, r := range chat.Records(history, models, cps, tallies, time.Now().UTC()) {
			log.Add(r)
		}
		if head.Model != c.start.Header.Model && c.start.Header.Model != "" {
			log.Add(chat.Record{Model: c.start.Header.Model})
		}
	}
	return c.Recorder()
}

// New begins a new conversation's recording (tui.Conversations).
func (c *Conversation) New() perform.Recorder {
	return c.switchTo(c.store.Begin(c.start), nil, nil, nil, nil)
}

// List returns the saved conversations (tui.Conversations).
func (c *Conversation) List() ([]sessions.Meta, error) { return c.store.List() }

// Resume continues a saved conversation (tui.Conversations).
func (c *Conversation) Resume(id string) (sessions.Continued, error) {
	m, err := c.store.Find(id)
	if err != nil {
		return sessions.Continued{}, err
	}
	c.mu.Lock()
	current := c.session != nil && c.session.ID() == m.ID
	c.mu.Unlock()
	if current {
		return sessions.Continued{}, fmt.Errorf("session %s is the conversation on screen", m.ID)
	}
	r, err := c.store.Load(m)
	if err != nil {
		return sessions.Continued{}, err
	}
	hold, err := c.store.Hold(m.ID)
	if err != nil {
		return sessions.Continued{}, err
	}
	st := c.start
	st.Resume, st.Hold = r.Meta, hold
	notice := fmt.Sprintf("Resumed session %s: %s (%d messages).", m.ID, safe.Line(m.Title), len(r.Messages))
	if r.Log.CutOff {
		notice += " Its last line was cut off and was skipped."
	}
	if note := r.Log.SkippedNote(); note != "" {
		notice += " The log is damaged: " + note + "."
	}
	tallies := c.priced(r.Log.Tallies)
	return sessions.Continued{History: r.Messages, Compactions: r.Log.Compactions, Tallies: tallies,
		Log: c.switchTo(c.store.Begin(st), r.Messages, r.Log.MessageModels, r.Log.Compactions, tallies), Notice: notice}, nil
}

// Close ends the recordings and returns the first error.
func (c *Conversation) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, s := range c.ended {
		errs = append(errs, s.Close())
	}
	if c.session != nil {
		errs = append(errs, c.session.Close())
	}
	if c.log != nil {
		errs = append(errs, c.log.Close())
	}
	return errors.Join(errs...)
}

// SavedLine is the line left on the terminal after a chat (after Close): where it was saved
// and how to come back to it, saying so when only a part was (the error Close returned says
// why); "" when nothing was saved.
func (c *Conversation) SavedLine() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session == nil || !c.session.Saved() {
		return ""
	}
	if c.session.Close() != nil {
		return fmt.Sprintf("Conversation saved only in part to %s (the error below says why) — resume what was saved with: phasechat --resume %s", c.session.Path(), c.session.ID())
	}
	return fmt.Sprintf("Conversation saved to %s — resume it with: phasechat --resume %s", c.session.Path(), c.session.ID())
}

// SavedID is the current session's id once something of it was written; "" before, or when
// the conversation is not kept.
func (c *Conversation) SavedID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session == nil || !c.session.Saved() {
		return ""
	}
	return c.session.ID()
}

// notKept reports whether the conversation is not to be kept: --no-save (or save = false), or
// a one-shot run with save_oneshot = false.
func (s *Settings) notKept() bool {
	return s.NoSave || s.OneShot && s.File != nil && s.File.SaveOneShot != nil && !*s.File.SaveOneShot
}
