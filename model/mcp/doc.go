// Package mcp connects phasechat to Model Context Protocol servers, over stdio (a command
// started directly, never through a shell) and streamable HTTP, with the official Go SDK.
// Their tools join a tools.Registry as external tools, so they take the path every tool
// takes: schema validation before anything runs, a timeout and Esc, capped and sanitised
// output, approval.
//
// # Configuration
//
// Config is the [mcp] section, one [mcp.NAME] table per server (Server documents the keys).
// It decodes with BurntSushi/toml; Check validates it, naming file, line and key. To embed it
// in a larger file (model/config does), give the file's struct a field of type Config tagged
// toml:"mcp", decode, then call its Check with a Source naming the file, its text, the
// decoder's MetaData and the prefix {"mcp"}. LoadFile and Parse read a file holding only
// [mcp.NAME] tables.
//
// # Lifecycle
//
// Start returns at once; each server starts on its own goroutine within its startup
// timeout. Until it is ready the registry reports it pending (the chat says once that a
// request goes without it). A server that fails to start is reported with why, quoting its
// last stderr lines; one that dies is restarted once per session, then marked failed. A
// front end reads Next for the footer's "MCP 2/3" and the notices. Close stops every server
// and returns once each child process is reaped; what they left in their process groups is
// killed.
//
// # Invariants
//
//   - A stdio server's environment is PATH, HOME and its configured env only; no variable of
//     tools.ProviderEnv or Registry.HiddenEnv, and no value holding one of Registry.Secrets,
//     ever reaches a server, in its environment or in a header.
//   - Header values and tokens are never shown or logged; errors name variables, not values.
//   - A server's stderr goes to its log file (capped) and a small in-memory tail, never to
//     the screen.
//   - A tool is named "<server>__<tool>", sanitised to OpenAI's name rules; the name is a
//     function of the server's and the tool's names alone.
//   - Approval: readOnlyHint tools run at once unless approve = "always"; others ask unless
//     approve = "never". The approval key is a hash of the tool's annotations, so a tool
//     whose annotations change is asked about again.
//   - A cancelled or timed-out call sends the protocol's cancellation; its late answer is
//     dropped by the SDK.
package mcp
