// Package stream is phasechat's wire: it sends a chat request in one of three wire formats
// (Wire: OpenAI Chat Completions, Anthropic Messages, OpenAI Responses) and turns the answer
// into classified Updates that the chat folds into phase.Reduce and phase.ToolCalls, honest
// about how each stream ended. Whatever the format, the Updates mean the same things and the
// outcome rules are the same.
//
// The pipeline, shared by the live Client and by Replay:
//
//   - framing (sse.go, paced.go): sse.EventStreamReader from github.com/r3labs/sse/v2 finds
//     event boundaries in the body; parseEvent reads the fields (BOM, CR/LF/CRLF, multi-line
//     data, comments, event names); frames over 16 MiB end the stream with an error; an
//     unterminated last event is kept only at a clean EOF.
//   - the format (format.go): given, or detected from the first frame (DetectWire); the
//     Anthropic Messages (anthropic.go) and Responses (responses.go) decoders share the
//     outcome rules of blockreply.go and the explicit call lifecycle of blockcalls.go (a call
//     is ready at its own block's or item's end).
//   - Chat Completions classification and decoding (decoder.go, wire.go): each frame is text, tool, error,
//     done, malformed or ignore, decided by JSON type and not by truthiness, and yields the
//     phase.Events it means.
//   - reassembly (reassemble.go, lexer.go): tool-call fragments are routed by index
//     (docs/architecture.md, Tool calls) into calls whose arguments an incremental JSON lexer
//     follows, so a call becomes ready mid-stream as soon as something after it shows it is over.
//   - outcomes and errors (decoder.go, errors.go, client.go): every stream ends with exactly
//     one end-of-stream Update and one Outcome — complete, truncated, error or stopped — and
//     every failure is an *Error whose Message is what the user is told.
//
// A stream:false answer decodes into the same Result, and BufferedUpdates replays it as the
// Updates a stream of it would have given, so streamed equals buffered.
package stream
