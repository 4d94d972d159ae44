// Package sessions keeps every conversation: one session log (see sessions/sessionlog) per
// conversation in a private folder, and an index of them (id, title, provider, model, times,
// turns, size) so that listing never reads a log.
//
// Invariants: the folder is mode 0700 and every file in it 0600. The index is only ever
// replaced whole (a temporary file renamed over it), and every read-modify-write of it holds
// an exclusive lock on a lock file beside it, so concurrent phasechat processes never lose
// each other's entries and a reader never sees half an index; an entry's turns are added to,
// never overwritten. A session's log is written only by the process that holds the
// conversation (Hold: a flock on ID.lock, which names the holder); another process is refused
// with a *HeldError, and may view the conversation without saving or fork it (Start.Parent).
package sessions
