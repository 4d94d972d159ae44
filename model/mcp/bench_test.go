package mcp

import (
	"context"
	"testing"
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
