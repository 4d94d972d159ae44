// Package stream gets the bytes of a chat answer: the Client sends a request (encoded by
// package wire in the client's format) over HTTP, follows only safe redirects, words HTTP and
// network failures (with Retry-After), lists models, and hands the body to the feed, which
// Replay shares to run a recorded file exactly as the live stream went. What the bytes mean —
// messages, decoders, reassembly, Updates, Results and errors — is package wire's.
//
//   - body sniffing (feed.go): an event stream, a whole JSON answer or error object, an HTML
//     page or prose, by the body first and its Content-Type second.
//   - framing (sse.go): the framer finds event boundaries in one pass over the body's bytes
//     and parseEvent reads the fields (BOM, CR/LF/CRLF, multi-line data, comments, event
//     names); frames over 16 MiB end the stream with an error; an unterminated last event is
//     kept only at a clean EOF.
//   - the Stream (live.go): Next, Ready, Result and Close over one response, the stall
//     watchdog (watchdog.go) and the reply size limit; every failure comes out as the
//     end-of-stream Update and a *wire.Error.
package stream
