// Package linemode is phasechat's accessible front end (`phasechat --accessible`
// or ACCESSIBLE=1): a line mode for screen readers and plain terminals. It drives the same
// engine as the full-screen TUI (model/chat, through a perform.Driver) but never uses Bubble
// Tea, the alternate screen or cursor movement.
//
// # Output
//
// Output is only ever appended, one whole line at a time (the "You: " prompt is the one
// unfinished line), and holds no escape sequence of any kind: no colour (so NO_COLOR holds),
// no cursor movement, no erase, no title. Everything untrusted passes view/safe first. The
// lines ([Announcer] decides them):
//
//	Status: Writing a reply. Esc stops generating.      one per phase change (A2)
//	Assistant: first line of the reply                  reply text by whole lines (A4)
//	second line
//	Tool: list_dir started: path=.                      a tool starts (A3): name and summary, never JSON
//	Tool: list_dir done in 3 ms: README.md              … and ends: the first line of its result
//	Reasoning: 1,234 characters (not read out).         once per reply that had reasoning
//	Note: Stopped after 8 steps (--max-steps 8). …      the engine's own notices
//
// When a Tool or Status line comes between two parts of a reply, the part before it is
// printed first (even mid-line) and the part after it starts with "Assistant: " again, so
// lines keep the order things happened in and a listener knows who speaks. There is no
// spinner and nothing is rewritten. The status texts are phase.Status's.
// A new tool name within streaming-tool prints no Status line: the Tool lines name each tool.
//
// Approvals are the one Status line that is not a phase change: when a tool waits for
// approval, the question phase.Status gives in that state ("Allow make_note with text=hi?
// y runs it, n declines, A allows make_note for this session. Esc stops.") is printed once as
// a Status line, because the user must hear which keys answer it, and the Status line is what
// a listener attends to. Answering it prints the tool's start (or "not run") line, not another
// Status line.
//
// # Input
//
// The composer is the prompt "You: ", read with the terminal's own line editing (canonical
// mode, echo on), which screen readers follow best. While a reply streams or tools run or
// wait for approval, and in the error phase while Retry has the focus, the terminal is in
// single-key mode (non-canonical, no echo; ISIG, OPOST and ICRNL kept, so Ctrl+C still raises
// SIGINT and "\n" still returns the carriage):
//
//	Esc        stop the reply and the tools it started     while streaming
//	y / n / A  run / decline / always allow this tool      while a tool waits for approval,
//	           once the keyboard was still a moment after the question (typing never answers)
//	Enter      retry                                       in the error phase
//	Tab        go to the composer (prompt "You: " again)   in the error phase; an empty
//	           line there goes back to Retry
//	Ctrl+D     quit                                        in the error phase
//
// Esc is a lone ESC byte: an ESC followed within escWait (30 ms) by more bytes is an escape
// sequence (an arrow key, Alt+letter) and is ignored whole. Ctrl+D on an empty prompt quits;
// Ctrl+C (SIGINT), SIGTERM and SIGHUP quit at any time, stopping a reply cleanly first (engine
// Stop, then every effect in flight is waited for). After a job-control stop (Ctrl+Z) the
// mode is set again on SIGCONT. The terminal is put back exactly as Run found it on every way
// out of Run, panics in Run's goroutine included; a panic on another goroutine ends the
// process without deferred calls, which no Go program can intercept.
//
// Input is read on a goroutine of its own; a read that returns just as the mode changes is
// taken in the mode in effect when it returned. A change of mode discards input not read yet,
// so keys pressed while a reply streamed never start the next message, and a message is one
// line: of a pasted block of lines the first is sent and the rest discarded, never taken for
// keys (a stray y or a would answer an approval question).
// Every read starts afresh in the current mode: standard input, usually a blocking
// descriptor, is read through /dev/tty opened anew when it is the controlling terminal (see
// pollableInput). Only with a terminal that is neither pollable nor the controlling one can a
// Ctrl+D at the prompt go unnoticed (a kernel read begun in single-key mode waits for at
// least one byte); Ctrl+C always quits.
//
// # Input that is not a terminal
//
// From a pipe or a file, input is read as lines, one message each, sent one after another as
// each reply ends; Run quits when the input ends and the last reply is over. There is no
// single-key mode: Esc and Retry are not available (after an error the next line is sent as a
// new message), and tools that need approval are declined by the engine, which the caller
// configures with chat.Config.CanAsk false. Lines read are printed after the prompt, since no
// terminal echoed them.
package linemode
