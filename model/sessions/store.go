package sessions

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Meta is a session's index entry.
type Meta struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Provider string    `json:"provider,omitempty"`
	Model    string    `json:"model,omitempty"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	Turns    int       `json:"turns"`            // user messages
	Size     int64     `json:"size"`             // bytes of the log
	Parent   string    `json:"parent,omitempty"` // the session this one is a fork of
	// OneShot marks a session a one-shot run (-p) started: kept, but left out of the session
	// picker and of `sessions list` unless --all asks for every session (Interactive).
	OneShot bool `json:"oneshot,omitempty"`
	// The conversation's tokens in and out, as the servers reported them (the usage records),
	// and its cost in US dollars, counting the requests whose model had a known price.
	TokensIn  int     `json:"tokens_in,omitempty"`
	TokensOut int     `json:"tokens_out,omitempty"`
	CostUSD   float64 `json:"cost_usd,omitempty"`
}

// Interactive is all without the one-shot runs, in the same order.
func Interactive(all []Meta) []Meta {
	out := make([]Meta, 0, len(all))
	for _, m := range all {
		if !m.OneShot {
			out = append(out, m)
		}
	}
	return out
}

// Store is a sessions folder.
type Store struct {
	dir string
	// Notices, when not nil, is told what the user should know as it happens, each a line: a
	// change waiting for the index's lock held by another process, a log Search could not
	// read (a full-screen front end leaves it nil: the terminal is its own).
	Notices  io.Writer
	lockWait time.Duration // how long a change waits for that lock: LockWait
}

// ErrNotFound is the cause when no session has the id asked for.
var ErrNotFound = errors.New("no such session")

// ErrAmbiguous is the error of an id prefix that more than one session starts with.
var ErrAmbiguous = errors.New("more than one session has that id")

// notFound is an ErrNotFound that says more.
type notFound string

func (e notFound) Error() string        { return string(e) }
func (e notFound) Is(target error) bool { return target == ErrNotFound }

// ambiguous is an ErrAmbiguous that says more.
type ambiguous string

func (e ambiguous) Error() string        { return string(e) }
func (e ambiguous) Is(target error) bool { return target == ErrAmbiguous }

// DefaultDir is $XDG_DATA_HOME/phasechat/sessions, else ~/.local/share/phasechat/sessions.
func DefaultDir() (string, error) {
	data, err := DataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(data, "sessions"), nil
}

// DataDir is phasechat's data folder: $XDG_DATA_HOME/phasechat, else
// ~/.local/share/phasechat. A relative XDG_DATA_HOME is ignored, as the spec asks.
func DataDir() (string, error) {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "phasechat"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", fmt.Errorf("cannot find a folder to keep sessions in (set XDG_DATA_HOME or HOME): %v", err)
	}
	return filepath.Join(home, ".local", "share", "phasechat"), nil
}

// Open opens the store in dir, creating it (and its parents) with mode 0700 and restricting
// an existing one to its owner.
func Open(dir string) (*Store, error) {
	if err := privateDir(dir); err != nil {
		return nil, err
	}
	return &Store{dir: dir, lockWait: LockWait}, nil
}

// privateDir makes dir exist as a folder only its owner can enter.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create the folder %s: %w", dir, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot use the folder %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("cannot restrict the folder %s to its owner: %w", dir, err)
		}
	}
	return nil
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// LogPath is where the session id's log is.
func (s *Store) LogPath(id string) string { return filepath.Join(s.dir, id+".jsonl") }

// List returns every session, the most recently updated first. It reads only the index; when
// the index is missing (deleted by hand) it is rebuilt once from the logs.
func (s *Store) List() ([]Meta, error) {
	all, missing, err := s.loadIndex()
	if err != nil || !missing {
		return all, err
	}
	if logs, _ := filepath.Glob(filepath.Join(s.dir, "*.jsonl")); len(logs) == 0 {
		return nil, nil
	}
	if err := s.update(func(all []Meta) ([]Meta, error) { return all, nil }); err != nil {
		return nil, err
	}
	return s.readIndex()
}

// Latest returns the most recently updated session.
func (s *Store) Latest() (Meta, error) {
	all, err := s.List()
	if err != nil {
		return Meta{}, err
	}
	if len(all) == 0 {
		return Meta{}, notFound("there is no saved session yet in " + s.dir)
	}
	return all[0], nil
}

// Find returns the session whose id is id or starts with it (when only one does).
func (s *Store) Find(id string) (Meta, error) {
	all, err := s.List()
	if err != nil {
		return Meta{}, err
	}
	return find(all, id)
}

func find(all []Meta, id string) (Meta, error) {
	if id == "" {
		return Meta{}, notFound("no session id given")
	}
	var matches []Meta
	for _, m := range all {
		if m.ID == id {
			return m, nil
		}
		if strings.HasPrefix(m.ID, id) {
			matches = append(matches, m)
		}
	}
	switch len(matches) {
	case 0:
		return Meta{}, notFound(fmt.Sprintf("no session %q (phasechat sessions list shows them)", id))
	case 1:
		return matches[0], nil
	}
	return Meta{}, ambiguous(fmt.Sprintf("%d sessions start with %q; give more of the id", len(matches), id))
}

// Rename sets a session's title.
func (s *Store) Rename(id, title string) (Meta, error) {
	title = Title(title)
	if title == "" {
		return Meta{}, errors.New("the new title is empty")
	}
	var got Meta
	err := s.update(func(all []Meta) ([]Meta, error) {
		m, err := find(all, id)
		if err != nil {
			return nil, err
		}
		for i := range all {
			if all[i].ID == m.ID {
				all[i].Title = title
				got = all[i]
			}
		}
		return all, nil
	})
	return got, err
}

// Remove deletes a session: its index entry, its log, its lock file unless a process holds
// the conversation (removing a held lock file would let another process hold a new one beside
// it), and the attached files no other log names (see collectFiles).
func (s *Store) Remove(id string) (Meta, error) {
	var gone Meta
	err := s.update(func(all []Meta) ([]Meta, error) {
		m, err := find(all, id)
		if err != nil {
			return nil, err
		}
		gone = m
		kept := all[:0]
		for _, e := range all {
			if e.ID != m.ID {
				kept = append(kept, e)
			}
		}
		return kept, nil
	})
	if err != nil {
		return Meta{}, err
	}
	if h, err := s.Hold(gone.ID); err == nil {
		os.Remove(s.LockPath(gone.ID))
		h.Release()
	}
	path := s.LogPath(gone.ID)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		if err := os.Remove(path); err != nil {
			return gone, fmt.Errorf("the session is gone from the list, but its log %s could not be deleted: %w", path, err)
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return gone, fmt.Errorf("the session is gone from the list, but its log %s could not be checked: %w", path, err)
	}
	if _, err := s.collectFiles(time.Now()); err != nil {
		return gone, fmt.Errorf("the session is deleted, but the attached files no other conversation uses could not all be: %w", err)
	}
	return gone, nil
}

// newID is a session id: the UTC time it was created, sortable, and 24 random bits that keep
// two sessions started in the same second apart. It does no I/O (Begin runs in Update); the
// generator is seeded afresh in every process.
func newID(now time.Time) string {
	return fmt.Sprintf("%s-%06x", now.UTC().Format("20060102-150405"), rand.Uint32()&0xffffff)
}
