//go:build unix

package tools

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSearchFilesVsGrep searches 10,000 small files in 100 directories for a rare string,
// with search_files and with `grep -rn` on the same tree, alternating; cpu-ms/op is the CPU
// each took (this process's for search_files, the child's for grep).
func BenchmarkSearchFilesVsGrep(b *testing.B) {
	grep, err := exec.LookPath("grep")
	if err != nil {
		b.Skip("no grep to compare with")
	}
	r := newTestRegistry(b, "")
	line := strings.Repeat("lorem ipsum dolor sit amet ", 2) + "\n"
	body := strings.Repeat(line, 20)
	for i := range 10_000 {
		text := body
		if i%100 == 0 {
			text += fmt.Sprintf("needle %d\n", i)
		}
		writeFile(b, filepath.Join(r.Root(), fmt.Sprintf("d%d", i%100), fmt.Sprintf("f%d.txt", i)), text)
	}
	ctx := context.Background()
	var ours, theirs time.Duration
	for b.Loop() {
		start := cpu(b, syscall.RUSAGE_SELF)
		if res := r.Run(ctx, Call{Name: "search_files", Arguments: `{"pattern": "needle"}`}); res.IsError || strings.Count(res.Output, "\n") != 99 {
			b.Fatalf("%d lines: %.200s", strings.Count(res.Output, "\n")+1, res.Output)
		}
		ours += cpu(b, syscall.RUSAGE_SELF) - start
		start = cpu(b, syscall.RUSAGE_CHILDREN)
		cmd := exec.Command(grep, "-rn", "needle", ".")
		cmd.Dir = r.Root()
		if out, err := cmd.Output(); err != nil || strings.Count(string(out), "\n") != 100 {
			b.Fatalf("grep: %v", err)
		}
		theirs += cpu(b, syscall.RUSAGE_CHILDREN) - start
	}
	b.ReportMetric(float64(ours.Microseconds())/1000/float64(b.N), "search-cpu-ms/op")
	b.ReportMetric(float64(theirs.Microseconds())/1000/float64(b.N), "grep-cpu-ms/op")
	b.ReportMetric(float64(ours)/float64(theirs), "x-grep")
}

func cpu(b *testing.B, who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
