// Package bench compares phasechat's streaming pipeline with the openai-go SDK's on the same
// bytes (P1 in docs/architecture.md). It is a module of its own so that the SDK and its dependencies
// stay out of phasechat's go.mod; run it with `cd stream/internal/bench && go test -bench .`.
package bench
