package benchdata

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

// realisticStreamSHA256 is the digest package stream's realisticStream (stream/realistic_test.go)
// checks too: the SDK comparison and the package's own benchmarks measure the same bytes.
const realisticStreamSHA256 = "917cd97576efaf60da2fff6bcb65d04d188997ac3a9d830ca30ec1c1e5670913"

func TestRealisticStreamIsTheOnePackageStreamMeasures(t *testing.T) {
	body, _ := RealisticStream()
	if got := fmt.Sprintf("%x", sha256.Sum256(body)); got != realisticStreamSHA256 {
		t.Fatalf("RealisticStream changed (sha256 %s): change stream/realistic_test.go the same way and update both digests", got)
	}
}
