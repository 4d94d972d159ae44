package reaper

import "testing"

// BenchmarkRegisterARun is what a run pays to be watched once the supervisor is up: three
// lines on its pipe.
func BenchmarkRegisterARun(b *testing.B) {
	Start("").End() // the supervisor is started once, before the loop
	for b.Loop() {
		w := Start(MarkEnv + "=0123456789abcdef0123456789abcdef")
		w.Group(1 << 22)
		w.End()
	}
}

// BenchmarkStartSupervisor is the once-per-process cost of the first run: starting the
// supervisor (this program again) and, here, seeing it end at its pipe's end.
func BenchmarkStartSupervisor(b *testing.B) {
	for b.Loop() {
		cmd, pipe, err := startSupervisor()
		if err != nil {
			b.Fatal(err)
		}
		pipe.Close()
		cmd.Wait()
	}
}
