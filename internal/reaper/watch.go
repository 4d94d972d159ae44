package reaper

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
)

// serveArg is the one argument that makes this program the supervisor (see init).
const serveArg = "--phasechat-supervise-runs"

func init() {
	if len(os.Args) == 2 && os.Args[1] == serveArg {
		os.Exit(serve(os.Stdin))
	}
}

// Watch is one registered run. Its methods do nothing on a nil *Watch.
type Watch struct {
	id uint64
}

// supervisor is this process's side of the supervisor: the pipe to it and what it was told.
type supervisor struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	pipe *os.File // the write end; nil until the supervisor is started
	next uint64
	live map[uint64]*run

	recordPath string // this process's runs record (records.go); "" until the first run
	noRecord   bool   // there can be none
}

// run is what one Watch registered.
type run struct {
	mark        string
	pgid        int
	leaderStart uint64 // the group leader's start time, so that a reused pid is told apart
}

var sup = supervisor{live: map[uint64]*run{}}

// Start registers a run whose processes carry mark (an entry from NewMark, or "" for none), to
// be ended should this process die before End. Call it before the run's first process starts.
func Start(mark string) *Watch {
	sup.mu.Lock()
	defer sup.mu.Unlock()
	sup.prepareRecord()
	sup.next++
	w := &Watch{id: sup.next}
	sup.live[w.id] = &run{mark: mark}
	sup.send(markLine(w.id, mark))
	sup.record()
	return w
}

// Group adds the process group the run's command leads (its pid, when started with Setpgid).
func (w *Watch) Group(pgid int) {
	if w == nil {
		return
	}
	sup.mu.Lock()
	defer sup.mu.Unlock()
	if r := sup.live[w.id]; r != nil {
		r.pgid, r.leaderStart = pgid, startTime(pgid)
		sup.send(groupLine(w.id, pgid))
		sup.record()
	}
}

// End withdraws the run: call it once this process ended the run's processes itself (or
// leaves them be on purpose).
func (w *Watch) End() {
	if w == nil {
		return
	}
	sup.mu.Lock()
	defer sup.mu.Unlock()
	if sup.live[w.id] != nil {
		delete(sup.live, w.id)
		sup.send(fmt.Sprintf("end %d\n", w.id))
		sup.record()
	}
}

func markLine(id uint64, mark string) string { return fmt.Sprintf("mark %d %s\n", id, mark) }
func groupLine(id uint64, pgid int) string   { return fmt.Sprintf("group %d %d\n", id, pgid) }

// send writes line to the supervisor, starting one when there is none, and starting a new one
// (told every live run, line included) when the one there was has died. s.mu is held. Without
// a supervisor (it cannot be started) nothing is sent: the runs are ended by this process
// alone, as long as it lives.
func (s *supervisor) send(line string) {
	if s.pipe != nil {
		if _, err := io.WriteString(s.pipe, line); err == nil {
			return
		}
		s.pipe.Close()
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.pipe, s.cmd = nil, nil
	}
	if len(s.live) == 0 {
		return
	}
	cmd, pipe, err := startSupervisor()
	if err != nil {
		return
	}
	s.cmd, s.pipe = cmd, pipe
	if s.recordPath != "" {
		io.WriteString(pipe, "record "+s.recordPath+"\n")
	}
	for id, r := range s.live { // the line's run is among them, when it registers or adds
		if _, err := io.WriteString(pipe, markLine(id, r.mark)); err != nil {
			return
		}
		if r.pgid > 0 {
			io.WriteString(pipe, groupLine(id, r.pgid))
		}
	}
}

// startSupervisor starts this program as the supervisor, reading the returned pipe.
func startSupervisor() (*exec.Cmd, *os.File, error) {
	exe, err := executable()
	if err != nil {
		return nil, nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(exe, serveArg)
	cmd.Stdin = r
	cmd.Env = []string{}
	ownGroup(cmd)
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, nil, err
	}
	return cmd, w, nil
}
