// Package oneshot is the front end for scripts: one prompt in, the reply out, and an outcome
// that says truthfully how the turn ended (see Outcome and Result.ExitCode). It drives the
// same engine as the chat through perform.Driver; tools run as in the chat, and since nobody
// can be asked, side-effecting tools run only when the engine was configured to approve them.
//
// Output contract: with FormatText the reply's text alone goes to Out, sanitised and written
// as it streams; status lines, tool notices and reasoning go to Err. With FormatJSON one JSON
// object goes to Out when the turn ends; with FormatJSONL one JSON event per line as it
// happens. Out never receives anything else.
package oneshot
