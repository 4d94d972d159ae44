// Package wire is what the bytes of a streaming chat API mean, with no I/O: the messages and
// tools a request carries and the three formats' request encoders (Wire: OpenAI Chat
// Completions, Anthropic Messages, OpenAI Responses); the decoders that turn Frames (one SSE
// event each) into classified Updates that the chat folds into phase.Reduce and
// phase.ToolCalls; the Result and Outcome of a stream and its typed Error. Whatever the
// format, the Updates mean the same things and the outcome rules are the same. It imports
// neither net/http nor anything that runs a process; package stream gets the bytes.
//
//   - the format (format.go): given, or detected from the first frame (DetectWire); the
//     Anthropic Messages (anthropic.go) and Responses (responses.go) decoders share the
//     outcome rules of blockreply.go and the explicit call lifecycle of blockcalls.go (a call
//     is ready at its own block's or item's end).
//   - Chat Completions classification and decoding (decoder.go, wire.go): each frame is text,
//     tool, error, done, malformed or ignore, decided by JSON type and not by truthiness, and
//     yields the phase.Events it means.
//   - reassembly (reassemble.go, lexer.go): tool-call fragments are routed by index
//     (docs/architecture.md, Tool calls) into calls whose arguments an incremental JSON lexer
//     follows, so a call becomes ready mid-stream as soon as something after it shows it is
//     over. Calls that share an id get distinct ones by one rule (DistinctID).
//   - outcomes and errors (decoder.go, errors.go): every stream ends with exactly one
//     end-of-stream Update and one Outcome — complete, truncated, error or stopped — and every
//     failure is an *Error whose Message is what the user is told.
//   - redaction (redact.go): the secrets of a run are hidden in messages, errors and, as the
//     streams they are, in the Updates' text, reasoning and arguments.
//
// A stream:false answer decodes into the same Result (DecodeAnswer), and BufferedUpdates
// replays it as the Updates a stream of it would have given, so streamed equals buffered.
package wire
