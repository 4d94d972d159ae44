package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/phasechat/phasechat/internal/safefile"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
)

const (
	indexName = "index.jsonl"
	lockName  = "index.lock"
)

// MaxIndexSize bounds the sessions index read: a longer one is refused (and can be rebuilt
// from the logs).
const MaxIndexSize = 64 << 20

// readIndex loads the index, most recently updated first. A missing index is empty; a line
// that is not an entry (a hand edit) is skipped, so one bad line never hides the others.
func (s *Store) readIndex() ([]Meta, error) {
	all, _, err := s.loadIndex()
	return all, err
}

// loadIndex is readIndex that also says whether the index file is missing. A symbolic link
// at the index's name counts as missing: the index is only ever written by renaming a new
// file over that name, so a link is not ours, and the entries are rebuilt from the logs
// instead of read from whatever it points at. Other special files are refused as safefile
// refuses them.
func (s *Store) loadIndex() (all []Meta, missing bool, err error) {
	path := filepath.Join(s.dir, indexName)
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, true, nil
	}
	data, err := safefile.ReadFile(path, MaxIndexSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cannot read the sessions index: %w", err)
	}
	all = make([]Meta, 0, bytes.Count(data, []byte{'\n'}))
	shared := string(data) // the entries' strings are parts of one copy of the file
	for at := 0; at < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[at:], '\n'); i >= 0 {
			end = at + i
		}
		line := data[at:end:end]
		m, ok := decodeIndexLine(line, shared[at:end])
		at = end + 1
		if !ok {
			m = Meta{}
			ok = json.Unmarshal(line, &m) == nil
		}
		if ok && m.ID != "" && validID(m.ID) {
			all = append(all, m)
		}
	}
	sortMetas(all)
	return all, false, nil
}

func sortMetas(all []Meta) {
	slices.SortStableFunc(all, func(a, b Meta) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return compareStrings(b.ID, a.ID)
	})
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// update changes the index under the lock: change gets every entry and returns what the index
// holds next (or an error, and the index stays as it was).
func (s *Store) update(change func([]Meta) ([]Meta, error)) error {
	return s.updateRebuilt(func(all []Meta, _ bool) ([]Meta, error) { return change(all) })
}

// updateRebuilt is update whose change is also told whether the entries were rebuilt from the
// logs just now (the index was missing): then no entry was renamed.
func (s *Store) updateRebuilt(change func(all []Meta, rebuilt bool) ([]Meta, error)) error {
	unlock, err := lock(filepath.Join(s.dir, lockName), "the sessions index", s.lockWait, s.Notices)
	if err != nil {
		return err
	}
	defer unlock()
	all, missing, err := s.loadIndex()
	if err != nil {
		return err
	}
	if missing {
		all = s.scanLogs() // the index was deleted: what the logs say is all there is
	}
	next, err := change(all, missing)
	if err != nil {
		return err
	}
	return s.writeIndex(next)
}

// writeIndex replaces the index with a new file (never writing through a symlink: the
// temporary file is created fresh and renamed over the old name).
func (s *Store) writeIndex(all []Meta) error {
	sortMetas(all)
	tmp, err := os.CreateTemp(s.dir, ".index-*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write the sessions index: %w", err)
	}
	name := tmp.Name()
	defer os.Remove(name) // after the rename there is nothing left to remove
	w := bufio.NewWriterSize(tmp, 64<<10)
	enc := json.NewEncoder(w)
	for _, m := range all {
		if err := enc.Encode(m); err != nil {
			tmp.Close()
			return fmt.Errorf("cannot encode the sessions index: %w", err)
		}
	}
	err = w.Flush()
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot write the sessions index: %w", err)
	}
	if err := os.Rename(name, filepath.Join(s.dir, indexName)); err != nil {
		return fmt.Errorf("cannot replace the sessions index: %w", err)
	}
	return nil
}

// validID reports whether id is safe as a file name in the store: letters, digits and '-'.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// scanLogs rebuilds the entries from the logs in the folder (read whole, once: only when the
// index is missing). A log that cannot be read is left out.
func (s *Store) scanLogs() []Meta {
	names, _ := filepath.Glob(filepath.Join(s.dir, "*.jsonl"))
	var all []Meta
	for _, path := range names {
		id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		fi, err := os.Lstat(path)
		if !validID(id) || err != nil || !fi.Mode().IsRegular() {
			continue
		}
		log, err := sessionlog.Read(path)
		if err != nil {
			continue
		}
		m := Meta{ID: id, Created: fi.ModTime().UTC(), Updated: fi.ModTime().UTC(), Size: fi.Size()}
		m.Model = log.Model()
		m.TokensIn, m.TokensOut = log.Usage.PromptTokens, log.Usage.CompletionTokens
		if h := log.Header; h != nil {
			m.Parent, m.OneShot = h.Parent, h.OneShot
		}
		if log.Started != nil {
			m.Created = log.Started.UTC()
		}
		for _, msg := range log.Messages {
			if msg.Role == "user" {
				if m.Turns == 0 {
					m.Title = Title(msg.Text())
				}
				m.Turns++
			}
		}
		all = append(all, m)
	}
	return all
}
