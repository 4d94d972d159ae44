package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(childMain())
	}
	testwait.VerifyTestMain(m)
}

func openStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "data", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func user(text string) chat.Record {
	return chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts(text)}}
}

func assistant(text string) chat.Record {
	return chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts(text)}}
}

func closeSession(t testing.TB, ss *Session) {
	t.Helper()
	if err := ss.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestSessionIsSavedAndListed: a conversation becomes a log with its header first and an index
// entry titled by the first prompt, with its turns and size; the folder is 0700, files 0600.
func TestSessionIsSavedAndListed(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{Header: sessionlog.Header{Model: "m", Endpoint: "http://127.0.0.1:9/v1", System: "terse"}, Provider: "127.0.0.1:9"})
	ss.Add(user("What is the\ncapital of France?"))
	ss.Add(assistant("Paris."))
	ss.Add(user("And of Italy?"))
	ss.Add(assistant("Rome."))
	closeSession(t, ss)
	if !ss.Saved() {
		t.Fatal("Saved is false after records were written")
	}

	all, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 {
		t.Fatalf("list = %+v, want one session", all)
	}
	m := all[0]
	fi, err := os.Stat(ss.Path())
	if err != nil {
		t.Fatal(err)
	}
	want := Meta{ID: ss.ID(), Title: "What is the capital of France?", Provider: "127.0.0.1:9", Model: "m", Turns: 2, Size: fi.Size()}
	got := m
	got.Created, got.Updated = want.Created, want.Updated
	if got != want {
		t.Errorf("entry = %+v, want %+v", got, want)
	}
	if m.Created.IsZero() || m.Updated.Before(m.Created) {
		t.Errorf("times: created %v, updated %v", m.Created, m.Updated)
	}
	log, err := sessionlog.Read(ss.Path())
	if err != nil {
		t.Fatal(err)
	}
	if log.Header == nil || log.Header.Model != "m" || log.Header.System != "terse" || len(log.Messages) != 4 {
		t.Errorf("log = %+v", log)
	}
	for path, mode := range map[string]os.FileMode{s.Dir(): 0o700, ss.Path(): 0o600, filepath.Join(s.Dir(), indexName): 0o600, filepath.Join(s.Dir(), lockName): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s has mode %v, want %v", path, fi.Mode().Perm(), mode)
		}
	}
}

// TestNothingSaidLeavesNothing: a session closed without a record writes no log and no entry.
func TestNothingSaidLeavesNothing(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{})
	closeSession(t, ss)
	if ss.Saved() {
		t.Error("Saved is true for an empty conversation")
	}
	if _, err := os.Stat(ss.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a log was created: %v", err)
	}
	if all, _ := s.List(); len(all) != 0 {
		t.Errorf("list = %+v, want empty", all)
	}
}

// TestResumeAppendsToTheSameSession: resuming by id continues the same log and entry.
func TestResumeAppendsToTheSameSession(t *testing.T) {
	s := openStore(t)
	first := s.Begin(Start{Header: sessionlog.Header{Model: "m"}})
	first.Add(user("one"))
	first.Add(assistant("1"))
	closeSession(t, first)
	m, err := s.Latest()
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Load(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Messages) != 2 {
		t.Fatalf("loaded %d messages", len(r.Messages))
	}
	again := s.Begin(Start{Header: sessionlog.Header{Model: "m2"}, Resume: r.Meta})
	again.Add(user("two"))
	closeSession(t, again)
	all, _ := s.List()
	if len(all) != 1 || all[0].ID != m.ID || all[0].Turns != 2 || all[0].Title != "one" {
		t.Fatalf("list = %+v", all)
	}
	log, err := sessionlog.Read(s.LogPath(m.ID))
	if err != nil || len(log.Messages) != 3 || log.Header.Model != "m" {
		t.Fatalf("log = %+v, %v", log, err)
	}
}

// TestSeedIsWrittenFirst: a conversation resumed from an outside log starts its session with
// that history.
func TestSeedIsWrittenFirst(t *testing.T) {
	s := openStore(t)
	seed := []wire.Message{{Role: "user", Parts: wire.TextParts("old question")}, {Role: "assistant", Parts: wire.TextParts("old answer")}}
	ss := s.Begin(Start{Seed: seed})
	ss.Add(user("new question"))
	closeSession(t, ss)
	log, err := sessionlog.Read(ss.Path())
	if err != nil || len(log.Messages) != 3 || log.Messages[0].Text() != "old question" {
		t.Fatalf("log = %+v, %v", log, err)
	}
	all, _ := s.List()
	if all[0].Title != "old question" || all[0].Turns != 2 {
		t.Fatalf("entry = %+v", all[0])
	}
}

func TestFindRenameRemove(t *testing.T) {
	s := openStore(t)
	var ids []string
	for _, q := range []string{"alpha", "beta"} {
		ss := s.Begin(Start{})
		ss.Add(user(q))
		closeSession(t, ss)
		ids = append(ids, ss.ID())
	}
	if m, err := s.Find(ids[0]); err != nil || m.Title != "alpha" {
		t.Fatalf("Find(full id) = %+v, %v", m, err)
	}
	if _, err := s.Find("2"); err == nil || !strings.Contains(err.Error(), "give more of the id") {
		t.Errorf("an ambiguous prefix gave %v", err)
	}
	if _, err := s.Find("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown id gave %v", err)
	}
	if m, err := s.Rename(ids[0], "  Greek\nletters "); err != nil || m.Title != "Greek letters" {
		t.Fatalf("Rename = %+v, %v", m, err)
	}
	if _, err := s.Rename(ids[0], " "); err == nil {
		t.Error("an empty title was accepted")
	}
	if _, err := s.Remove(ids[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.LogPath(ids[1])); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the removed session's log is still there: %v", err)
	}
	all, _ := s.List()
	if len(all) != 1 || all[0].ID != ids[0] || all[0].Title != "Greek letters" {
		t.Fatalf("list = %+v", all)
	}
}

// TestRenameWhileOpenKeepsTheNewTitle: a session still being written does not overwrite a
// title another process gave it, and a removed one is not brought back.
func TestRenameWhileOpenKeepsTheNewTitle(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{})
	ss.Add(user("first"))
	waitFor(t, "the session being written is never in the index", func() bool { _, err := s.Find(ss.ID()); return err == nil })
	if _, err := s.Rename(ss.ID(), "renamed"); err != nil {
		t.Fatal(err)
	}
	ss.Add(user("second"))
	closeSession(t, ss)
	if m, _ := s.Find(ss.ID()); m.Title != "renamed" || m.Turns != 2 {
		t.Fatalf("entry = %+v", m)
	}

	gone := s.Begin(Start{})
	gone.Add(user("x"))
	waitFor(t, "the session to remove is never in the index", func() bool { _, err := s.Find(gone.ID()); return err == nil })
	if _, err := s.Remove(gone.ID()); err != nil {
		t.Fatal(err)
	}
	gone.Add(user("y"))
	_ = gone.Close()
	if _, err := s.Find(gone.ID()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a removed session came back: %v", err)
	}
}

// TestBadIndexLinesAreSkipped: a damaged line hides nothing else; an id that is not a safe
// file name is never used.
func TestBadIndexLinesAreSkipped(t *testing.T) {
	s := openStore(t)
	index := `{"id":"good","title":"kept"}` + "\n" + `not json` + "\n" + `{"id":"../../etc/passwd"}` + "\n"
	if err := os.WriteFile(filepath.Join(s.Dir(), indexName), []byte(index), 0o600); err != nil {
		t.Fatal(err)
	}
	all, err := s.List()
	if err != nil || len(all) != 1 || all[0].ID != "good" {
		t.Fatalf("list = %+v, %v", all, err)
	}
}

// TestIndexNeverWritesThroughASymlink: an index replaced by a symlink is replaced, not
// followed, and the conversations kept before it was planted are still listed.
func TestIndexNeverWritesThroughASymlink(t *testing.T) {
	s := openStore(t)
	before := s.Begin(Start{})
	before.Add(user("kept before"))
	closeSession(t, before)
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("untouched"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(s.Dir(), indexName)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(s.Dir(), indexName)); err != nil {
		t.Fatal(err)
	}
	ss := s.Begin(Start{})
	ss.Add(user("hi"))
	closeSession(t, ss)
	if all, err := s.List(); err != nil || len(all) != 2 {
		t.Fatalf("after a planted index link the list holds %+v, %v; want both conversations", all, err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "untouched" {
		t.Fatalf("the symlink's target was written: %q", data)
	}
	if fi, err := os.Lstat(filepath.Join(s.Dir(), indexName)); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the index is not a regular file: %v %v", fi, err)
	}
}

func TestDataDirFollowsXDG(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/x/data")
	if d, _ := DefaultDir(); d != "/x/data/phasechat/sessions" {
		t.Errorf("with XDG_DATA_HOME: %s", d)
	}
	t.Setenv("XDG_DATA_HOME", "relative")
	t.Setenv("HOME", "/home/u")
	if d, _ := DefaultDir(); d != "/home/u/.local/share/phasechat/sessions" {
		t.Errorf("with a relative XDG_DATA_HOME: %s", d)
	}
}

func TestTitle(t *testing.T) {
	for in, want := range map[string]string{
		"  hello   world \n":     "hello world",
		"\x1b]52;c;aGk=\x07x":    Title("\x1b]52;c;aGk=\x07x"),
		strings.Repeat("a", 100): strings.Repeat("a", titleRunes-1) + "…",
	} {
		if got := Title(in); got != want || strings.ContainsRune(got, 0x1b) {
			t.Errorf("Title(%q) = %q, want %q without escapes", in, got, want)
		}
	}
}

// TestAMissingIndexIsRebuiltFromTheLogs: with the index deleted, listing (or the next session
// written) rebuilds it from the logs, so no conversation is lost from the list.
func TestAMissingIndexIsRebuiltFromTheLogs(t *testing.T) {
	for _, via := range []string{"list", "new session"} {
		t.Run(via, func(t *testing.T) {
			s := openStore(t)
			var ids []string
			for _, q := range []string{"first kept", "second kept"} {
				ss := s.Begin(Start{Header: sessionlog.Header{Model: "m"}})
				ss.Add(user(q))
				ss.Add(assistant("a"))
				ss.Add(user("again"))
				closeSession(t, ss)
				ids = append(ids, ss.ID())
			}
			if err := os.Remove(filepath.Join(s.Dir(), indexName)); err != nil {
				t.Fatal(err)
			}
			if via == "new session" {
				ss := s.Begin(Start{})
				ss.Add(user("third"))
				closeSession(t, ss)
				ids = append(ids, ss.ID())
			}
			all, err := s.List()
			if err != nil || len(all) != len(ids) {
				t.Fatalf("list = %+v, %v; want %d sessions", all, err, len(ids))
			}
			for _, id := range ids[:2] {
				m, err := s.Find(id)
				if err != nil || m.Turns != 2 || !strings.HasSuffix(m.Title, "kept") || m.Model != "m" || m.Created.IsZero() {
					t.Errorf("rebuilt entry %+v, %v", m, err)
				}
			}
		})
	}
}

// A seeded conversation (a fork, or a log from outside the store) keeps its compaction: its
// new session's log holds it after the seed.
func TestSeedKeepsItsCompaction(t *testing.T) {
	s := openStore(t)
	seed := []wire.Message{{Role: "user", Parts: wire.TextParts("old question")}, {Role: "assistant", Parts: wire.TextParts("old answer")}}
	ss := s.Begin(Start{Seed: seed, SeedCompactions: []chat.Compaction{{Summary: "They asked.", Turns: 1}}})
	ss.Add(user("new question"))
	closeSession(t, ss)
	log, err := sessionlog.Read(ss.Path())
	if err != nil || len(log.Messages) != 3 || len(log.Compactions) != 1 || log.Compactions[0] != (chat.Compaction{Summary: "They asked.", Turns: 1, After: 1}) {
		t.Fatalf("log = %+v, %v", log, err)
	}
}

// A one-shot run's mark is in its log too: an index rebuilt from the logs still leaves the run
// out of the listing of interactive sessions, and keeps a fork's parent.
func TestARebuiltIndexKeepsTheOneShotMark(t *testing.T) {
	s := openStore(t)
	shot := s.Begin(Start{Header: sessionlog.Header{Model: "m"}, OneShot: true})
	shot.Add(user("one shot"))
	closeSession(t, shot)
	fork := s.Begin(Start{Header: sessionlog.Header{Model: "m"}, Parent: shot.ID()})
	fork.Add(user("kept"))
	closeSession(t, fork)
	if err := os.Remove(filepath.Join(s.Dir(), indexName)); err != nil {
		t.Fatal(err)
	}
	all, err := s.List()
	if err != nil || len(all) != 2 {
		t.Fatalf("list = %+v, %v", all, err)
	}
	if shown := Interactive(all); len(shown) != 1 || shown[0].ID != fork.ID() || shown[0].Parent != shot.ID() {
		t.Fatalf("interactive sessions after a rebuild: %+v", shown)
	}
}

// Seeded compactions made between the seed's turns are written in their places, so that the new
// session resumes with the summary where it was made.
func TestSeedWritesItsCompactionInItsPlace(t *testing.T) {
	s := openStore(t)
	seed := []wire.Message{*user("one").Message, {Role: "assistant", Parts: wire.TextParts("first")},
		*user("two").Message, {Role: "assistant", Parts: wire.TextParts("second")}}
	cps := []chat.Compaction{{Summary: "They counted.", Turns: 1, After: 1}, {Summary: "They counted twice.", Turns: 1, After: 2}}
	ss := s.Begin(Start{Seed: seed, SeedCompactions: cps})
	ss.Add(user("three"))
	closeSession(t, ss)
	log, err := sessionlog.Read(ss.Path())
	if err != nil || len(log.Messages) != 5 || !reflect.DeepEqual(log.Compactions, cps) {
		t.Fatalf("log = %+v, %v", log, err)
	}
}
