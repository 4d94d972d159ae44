package e2e

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
)

// BenchmarkLongReplyRecording is the CPU phasechat -p spends on the `long` reply (10k tokens,
// no pauses), saving the conversation as it streams and with --no-save, run alternately so
// that both meet the same load: saved/no-save is what recording costs.
func BenchmarkLongReplyRecording(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "phasechat")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building phasechat: %v\n%s", err, out)
	}
	h, err := fixtures.NewHandler(fixtures.Options{})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	url := hs.URL + "/v1"
	run := func(extra ...string) time.Duration {
		dir := b.TempDir()
		cmd := exec.Command(bin, append([]string{"-p", "go", "--base-url", url, "--model", "long"}, extra...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_CACHE_HOME="+dir, "OPENAI_API_KEY=", "OPENAI_BASE_URL=")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	var saved, unsaved time.Duration
	for b.Loop() {
		saved += run()
		unsaved += run("--no-save")
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(saved), "saved-cpu-ms/op")
	b.ReportMetric(ms(unsaved), "no-save-cpu-ms/op")
	b.ReportMetric(float64(saved)/float64(unsaved), "saved/no-save")
}
