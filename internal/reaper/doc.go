// Package reaper ends the processes phasechat started (command tools, MCP stdio servers, key
// commands) when phasechat itself dies, by any signal, SIGKILL included.
//
// The first Watch starts a supervisor: this same program re-executed with one argument the
// package's init recognises, in a process group of its own, its standard input the read end
// of a pipe whose write end only this process holds. Each Watch writes on that pipe what to
// end: the run's marker (the environment entry every process of the run inherits) and, once
// started, the process group its command leads; End withdraws it. The kernel closes the write
// end when this process dies however it dies, so the supervisor reads end of file and then
// kills, with SIGKILL, every group and every marked process still registered, and exits.
// What is written before a process starts is in the pipe before it can run, so no run is
// missed however early the death comes.
//
// Invariants: the supervisor holds no descriptor but the pipe's read end; it carries no
// environment (no secret, no marker); it ignores the terminal's signals. Should the
// supervisor itself be killed, the next Watch starts another and hands it every live
// registration. A SIGKILL that reaches the supervisor and phasechat at once (the OOM killer,
// kill -9 -1) ends both, and then nothing is ended: docs/architecture.md, Safety.
//
// Marked processes are found through /proc on Linux only; elsewhere the process groups are
// all there is.
package reaper
