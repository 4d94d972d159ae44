// Package model is the application layer: everything between the wire (package stream) and the
// screen (package view). It holds no code itself; its sub-packages are
//
//	app         the composition root: settings resolved once, a session assembled for every
//	            front end
//	chat        the conversation engine shared by both front ends: inputs in, effects out, no I/O
//	perform     effects turned into I/O: streams, tools, the session log; a headless driver
//	tools       the built-in and user-defined tools, their schemas and their sandbox
//	mcp         MCP servers (stdio, streamable HTTP) and their tools in the registry
//	config      the config file's format: providers, models, request options, [mcp] tables
//	tomlpos     the line where a TOML key is written, for errors that name file and line
//	sessionlog  the JSON-lines session log and its reader
//	sessions    kept conversations: one log each plus an index that listing reads alone
//	tui         the full-screen front end (Bubble Tea)
//	linemode    the accessible front end: a line mode that only appends
//	oneshot     the scripting front end (-p): the reply on stdout, an exit code that says how
//	            the turn ended
//	e2e         end-to-end tests of the tool loop over real HTTP
//	e2e/tmux    the real binary in a real terminal (tmux): both front ends, one harness
package model
