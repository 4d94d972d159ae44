//go:build linux

package reaper

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// executable is this program, as the kernel knows it: replaced or deleted on disk since it
// started, it still runs the same.
func executable() (string, error) { return "/proc/self/exe", nil }

// KillMarked stops and kills every process but this one whose environment holds mark, the
// entry every process of one run inherits (NewMark): it finds those that left the process
// group and the process tree alike, a double fork through setsid included, while their
// environment still carries it. It returns how many it found outside group, the process
// group the run's command leads.
func KillMarked(mark string, group int) (escaped int) {
	killed := map[int]bool{}
	for range 10 { // again, for what was forked while a pass ran
		var fresh []int
		for _, p := range marked(mark) {
			if !killed[p] {
				fresh = append(fresh, p)
			}
		}
		if len(fresh) == 0 {
			return escaped
		}
		for _, p := range fresh {
			syscall.Kill(p, syscall.SIGSTOP)
		}
		for _, p := range fresh {
			if pgid, err := syscall.Getpgid(p); err == nil && pgid != group {
				escaped++
			}
			syscall.Kill(p, syscall.SIGKILL)
			killed[p] = true
		}
	}
	return escaped
}

// marked lists the processes, this one excepted, whose environment holds mark. Processes of
// other users and exited ones (a zombie has no environment left) are not readable, so never
// listed.
func marked(mark string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	needle := []byte(mark)
	var out []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil || p == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for v := range bytes.SplitSeq(env, []byte{0}) {
			if bytes.Equal(v, needle) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// startTime is when process pid started, in clock ticks since boot (field 22 of its stat);
// 0 when there is no such process.
func startTime(pid int) uint64 {
	fields := statFields(pid)
	if len(fields) < 20 {
		return 0
	}
	t, _ := strconv.ParseUint(string(fields[19]), 10, 64)
	return t
}

// groupMembers lists the processes of process group pgid.
func groupMembers(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if fields := statFields(pid); len(fields) > 2 && string(fields[2]) == strconv.Itoa(pgid) {
			out = append(out, pid)
		}
	}
	return out
}

// statFields are the fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, …
func statFields(pid int) [][]byte {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil
	}
	return bytes.Fields(data[i+1:])
}
