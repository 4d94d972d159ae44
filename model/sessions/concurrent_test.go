package sessions

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
)

const (
	childEnv  = "PHASECHAT_SESSIONS_TEST_CHILD" // the store's folder, in a child process
	childRuns = "PHASECHAT_SESSIONS_TEST_RUNS"
)

// writeSessions records runs conversations of three turns each, renaming every other one
// while it is still open.
func writeSessions(s *Store, tag string, runs int) error {
	for i := range runs {
		ss := s.Begin(Start{Header: sessionlog.Header{Model: tag}})
		for turn := range 3 {
			ss.Add(user(fmt.Sprintf("%s-%d turn %d", tag, i, turn)))
			ss.Add(assistant("ok"))
		}
		if i%2 == 0 {
			// The entry may not be written yet: then there is nothing to rename.
			if _, err := s.Rename(ss.ID(), "renamed "+tag); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
		if err := ss.Close(); err != nil {
			return err
		}
	}
	return nil
}

func childMain() int {
	s, err := Open(os.Getenv(childEnv))
	if err == nil {
		runs, _ := strconv.Atoi(os.Getenv(childRuns))
		err = writeSessions(s, "proc"+strconv.Itoa(os.Getpid()), runs)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestConcurrentWritersLoseNothing: several processes and goroutines record sessions into one
// store at once; afterwards the index has an entry for every session, each with its three
// turns, and every log reads back whole.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	const procs, goroutines, runs = 3, 3, 15
	s := openStore(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, procs+goroutines)
	for range procs {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+s.Dir(), childRuns+"="+strconv.Itoa(runs))
		wg.Go(func() {
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("child: %v: %s", err, out)
			}
		})
	}
	for g := range goroutines {
		wg.Go(func() {
			if err := writeSessions(s, "goroutine"+strconv.Itoa(g), runs); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	all, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != (procs+goroutines)*runs {
		t.Fatalf("the index has %d entries, want %d", len(all), (procs+goroutines)*runs)
	}
	seen := map[string]bool{}
	for _, m := range all {
		if seen[m.ID] {
			t.Fatalf("id %s twice", m.ID)
		}
		seen[m.ID] = true
		if m.Turns != 3 {
			t.Errorf("%s has %d turns, want 3", m.ID, m.Turns)
		}
		log, err := sessionlog.Read(s.LogPath(m.ID))
		if err != nil || len(log.Messages) != 6 || log.CutOff {
			t.Errorf("%s: log %+v, %v", m.ID, log, err)
		}
		fi, err := os.Stat(s.LogPath(m.ID))
		if err != nil || fi.Size() != m.Size {
			t.Errorf("%s: size %d in the index, %v on disk (%v)", m.ID, m.Size, fi, err)
		}
	}
}

// waitFor polls cond until it holds, failing with what when the test's patience runs out.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, cond, "%s", what)
}
