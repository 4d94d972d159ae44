package wire

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

func TestRealisticStreamIsTheOneTheSDKComparisonMeasures(t *testing.T) {
	body, _ := realisticStream()
	if got := fmt.Sprintf("%x", sha256.Sum256(body)); got != realisticStreamSHA256 {
		t.Fatalf("realisticStream changed (sha256 %s): change stream/internal/bench/benchdata the same way and update both digests", got)
	}
}
