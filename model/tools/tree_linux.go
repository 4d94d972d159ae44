//go:build linux

package tools

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// killDescendants stops (SIGSTOP, so none can start more meanwhile) and then kills every
// process descended from pid, found through /proc's parent links: a child that left the
// process group with setsid is still a descendant while its parent lives.
func killDescendants(pid int) {
	for range 3 { // again, for what was forked while the first pass ran
		procs := descendants(pid)
		if len(procs) == 0 {
			return
		}
		for _, p := range procs {
			syscall.Kill(p, syscall.SIGSTOP)
		}
		for _, p := range procs {
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

// descendants lists the processes whose chain of parents leads to pid.
func descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentOf(p); ok {
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	seen := map[int]bool{pid: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// parentOf reads a process's parent pid from /proc/<pid>/stat.
func parentOf(pid int) (int, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// "pid (comm) state ppid …"; comm may hold spaces and parentheses: cut after the last ')'
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(data[i+1:])
	if len(fields) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(string(fields[1]))
	return pp, err == nil
}
