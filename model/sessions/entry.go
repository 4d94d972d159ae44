package sessions

import (
	"os"
	"slices"
	"time"

	"github.com/phasechat/phasechat/model/chat"
)

// count notes what r changes of the session's entry: its model, tokens and cost, turns and
// title. It runs in the log's order, once r is written.
func (ss *Session) count(r chat.Record) {
	ss.entryMu.Lock()
	defer ss.entryMu.Unlock()
	if r.Model != "" {
		ss.meta.Model = r.Model
	}
	if r.Usage != nil {
		use := spent{r.Usage.PromptTokens, r.Usage.CompletionTokens, r.Cost}
		ss.unsavedUse = ss.unsavedUse.plus(use)
		use.addTo(&ss.meta)
	}
	if r.Message == nil || r.Message.Role != "user" {
		return
	}
	ss.meta.Turns++
	ss.unsaved++
	if ss.meta.Title == "" {
		ss.meta.Title = Title(r.Message.Text())
	}
}

// refresh brings this session's entry up to date, read-modify-write under the index's lock:
// the turns counted since the last refresh are added to the count it holds, and the model,
// the size and the time are set; the title only when it has none (a rename stays). An entry
// removed meanwhile (sessions rm) is not brought back. A new session's first refresh writes
// its entry (see list).
func (ss *Session) refresh() error {
	ss.entryMu.Lock()
	ss.meta.Updated = time.Now().UTC()
	if fi, err := os.Stat(ss.Path()); err == nil {
		ss.meta.Size = fi.Size()
	}
	mine, added, used := ss.meta, ss.unsaved, ss.unsavedUse
	listed := ss.listed
	ss.entryMu.Unlock()
	if !listed {
		return ss.list(mine, added, used)
	}
	err := ss.store.update(func(all []Meta) ([]Meta, error) {
		for i := range all {
			if all[i].ID == mine.ID {
				e := &all[i]
				e.Turns += added
				used.addTo(e)
				mine.TokensIn, mine.TokensOut, mine.CostUSD = e.TokensIn, e.TokensOut, e.CostUSD
				e.Model, e.Size, e.Updated = mine.Model, mine.Size, mine.Updated
				if e.Title == "" {
					e.Title = mine.Title
				}
				mine.Turns = e.Turns
				return all, nil
			}
		}
		return all, nil
	})
	if err == nil {
		ss.entryMu.Lock()
		defer ss.entryMu.Unlock()
		ss.heard(added, used)
		// the entry as found, and what was counted while it was written
		ss.meta.Turns = mine.Turns + ss.unsaved
		ss.meta.TokensIn, ss.meta.TokensOut, ss.meta.CostUSD = mine.TokensIn, mine.TokensOut, mine.CostUSD
		ss.unsavedUse.addTo(&ss.meta)
	}
	return err
}

// heard notes that the index holds the turns and use counted as added and used. entryMu is
// held.
func (ss *Session) heard(added int, used spent) {
	ss.unsaved -= added
	ss.unsavedUse = ss.unsavedUse.minus(used)
}

// list writes a new session's entry into the index, meta: what was counted so far, added and
// used of it not heard of by the index.
func (ss *Session) list(meta Meta, added int, used spent) error {
	err := ss.store.updateRebuilt(func(all []Meta, rebuilt bool) ([]Meta, error) {
		// A rebuilt index (scanLogs, when a listing found no index) may already hold the log
		// just created, and may have been renamed since: its title stays, the rest is ours. One
		// rebuilt by this update was not renamed: its title is only the log's first prompt,
		// which the log may hold by now.
		for _, m := range all {
			if m.ID == meta.ID && m.Title != "" && !rebuilt {
				meta.Title = m.Title
			}
		}
		all = slices.DeleteFunc(all, func(m Meta) bool { return m.ID == meta.ID })
		return append(all, meta), nil
	})
	if err != nil {
		return err
	}
	ss.entryMu.Lock()
	ss.listed = true
	ss.heard(added, used) // the entry holds them
	ss.entryMu.Unlock()
	ss.markStarted()
	return nil
}
