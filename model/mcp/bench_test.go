package mcp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/tools"
)

// A tool call through the registry to a real server: validation, the round trip, the result
// joined, capped and sanitised.
func BenchmarkCallStdio(b *testing.B) { benchCall(b, "stdio") }
func BenchmarkCallHTTP(b *testing.B)  { benchCall(b, "http") }

func benchCall(b *testing.B, transport string) {
	var cfg Server
	if transport == "http" {
		cfg = Server{URL: httpServerTB(b)}
	} else {
		cfg = stdioServerTB(b, "stdio", "")
	}
	reg := newRegistryTB(b)
	m := Start(Config{"t": cfg}, Options{Registry: reg, Lookup: env()})
	defer m.Close()
	<-m.Settled()
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if res := run(reg, ctx, "t__echo", `{"text":"hello"}`); res.Output != "hello" {
			b.Fatal(res)
		}
	}
}

// From Esc (the call's context cancelled) to the call's result, for a call the server never
// finishes: the time the user waits for "stopped by the user".
func BenchmarkEscStdio(b *testing.B) {
	dir := b.TempDir()
	reg := newRegistryTB(b)
	m := Start(Config{"t": stdioServerTB(b, "stdio", dir)}, Options{Registry: reg, Lookup: env()})
	defer m.Close()
	<-m.Settled()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan tools.Result, 1)
		os.Remove(filepath.Join(dir, "sleeping"))
		go func() { done <- run(reg, ctx, "t__sleep", ``) }()
		testwait.Until(b, func() bool {
			_, err := os.Stat(filepath.Join(dir, "sleeping"))
			return err == nil
		}, "the call never reached the server")
		b.StartTimer()
		cancel()
		if res := <-done; res.Outcome != tools.OutcomeStopped {
			b.Fatal(res)
		}
	}
}
