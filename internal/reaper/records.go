package reaper

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// The runs record: each process with live runs keeps a file <cache>/phasechat/runs/<pid>
// naming itself (pid and start time) and its runs (process group, the group leader's start
// time, mark); it is removed when its last run ends, and by the supervisor once it has ended
// them. A file left behind means both died (or the supervisor could not start): Sweep, at the
// next start, ends what the file names that still runs.

// recordsDir is the folder of the runs records; "" when there is no cache folder, or where
// start times cannot be read (elsewhere than Linux), without which a record cannot tell a
// live process from a pid used again.
func recordsDir() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "phasechat", "runs")
}

// prepareRecord finds this process's runs record a place, once. s.mu is held.
func (s *supervisor) prepareRecord() {
	if s.recordPath != "" || s.noRecord {
		return
	}
	dir := recordsDir()
	if dir == "" || os.MkdirAll(dir, 0o700) != nil {
		s.noRecord = true
		return
	}
	s.recordPath = filepath.Join(dir, strconv.Itoa(os.Getpid()))
}

// record rewrites this process's runs record from s.live. s.mu is held.
func (s *supervisor) record() {
	if s.recordPath == "" {
		return
	}
	if len(s.live) == 0 {
		os.Remove(s.recordPath)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "phasechat %d %d\n", os.Getpid(), startTime(os.Getpid()))
	for _, r := range s.live {
		fmt.Fprintf(&b, "run %d %d %s\n", r.pgid, r.leaderStart, r.mark)
	}
	tmp := s.recordPath + ".tmp"
	if os.WriteFile(tmp, []byte(b.String()), 0o600) == nil {
		os.Rename(tmp, s.recordPath)
	}
}

// Left is what Sweep ended of the runs of one phasechat process that died with its
// supervisor.
type Left struct {
	PID   int // the phasechat process that left them
	Ended int // how many processes were ended
}

// Sweep ends the runs recorded by phasechat processes that are gone (a process whose pid now
// belongs to another program, by its start time, is gone too): each run's process group when
// its leader is still the process recorded, and every process carrying its mark. It removes
// their records and returns, for each such process, how many of its processes it ended (none
// listed when nothing of it was still running).
func Sweep() []Left {
	dir := recordsDir()
	if dir == "" {
		return nil
	}
	entries, _ := os.ReadDir(dir)
	var out []Left
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		owner, runs, ok := readRecord(path)
		if !ok {
			continue
		}
		if owner.start != 0 && startTime(pid) == owner.start {
			continue // it still runs
		}
		ended := 0
		for _, r := range runs {
			if r.pgid > 0 && r.leaderStart != 0 && startTime(r.pgid) == r.leaderStart {
				ended += len(groupMembers(r.pgid))
				stopGroup(r.pgid)
				killGroup(r.pgid)
			}
			if r.mark != "" {
				ended += KillMarked(r.mark, -1) // none is in group -1: each counts
			}
		}
		os.Remove(path)
		if ended > 0 {
			out = append(out, Left{PID: pid, Ended: ended})
		}
	}
	return out
}

// recorded is the first line of a record: the process that wrote it.
type recorded struct {
	pid   int
	start uint64
}

// readRecord reads a runs record; ok is false when it is not one.
func readRecord(path string) (owner recorded, runs []run, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return owner, nil, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return owner, nil, false
	}
	if _, err := fmt.Sscanf(sc.Text(), "phasechat %d %d", &owner.pid, &owner.start); err != nil {
		return owner, nil, false
	}
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), " ", 4)
		if len(fields) != 4 || fields[0] != "run" {
			continue
		}
		var r run
		r.pgid, _ = strconv.Atoi(fields[1])
		r.leaderStart, _ = strconv.ParseUint(fields[2], 10, 64)
		r.mark = fields[3]
		if r.mark != "" && !strings.HasPrefix(r.mark, MarkEnv+"=") {
			r.mark = "" // only ever a mark: never a pattern that could match another's processes
		}
		runs = append(runs, r)
	}
	return owner, runs, true
}
