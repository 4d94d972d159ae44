package reaper

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
)

// serve is the supervisor: it reads registrations from in until end of file (the process that
// started it is gone), then ends every run still registered and returns the exit code.
func serve(in io.Reader) int {
	ignoreTerminalSignals()
	live := map[string]*run{}
	record := "" // the runs record of the process that started it, removed once its runs are ended
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		verb, rest, _ := strings.Cut(sc.Text(), " ")
		id, arg, _ := strings.Cut(rest, " ")
		switch verb {
		case "record":
			record = rest
		case "mark":
			live[id] = &run{mark: arg}
		case "group":
			if r := live[id]; r != nil {
				r.pgid, _ = strconv.Atoi(arg)
			}
		case "end":
			delete(live, id)
		}
	}
	for _, r := range live {
		if r.pgid > 0 {
			stopGroup(r.pgid)
		}
	}
	for _, r := range live {
		if r.mark != "" {
			KillMarked(r.mark, r.pgid)
		}
		if r.pgid > 0 {
			killGroup(r.pgid)
		}
	}
	if record != "" {
		os.Remove(record)
	}
	return 0
}
