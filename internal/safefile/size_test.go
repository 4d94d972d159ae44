package safefile

import "testing"

func TestSizeNamesTheLargestWholeUnit(t *testing.T) {
	for n, want := range map[int64]string{64 << 10: "64 KiB", 256 << 20: "256 MiB", 1 << 30: "1 GiB", 1500: "1500 bytes", 0: "0 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
