module github.com/phasechat/phasechat

go 1.26

require (
	github.com/r3labs/sse/v2 v2.10.0
	go.uber.org/goleak v1.3.0
)

require (
	golang.org/x/net v0.0.0-20191116160921-f9c825593386 // indirect
	gopkg.in/cenkalti/backoff.v1 v1.1.0 // indirect
)
