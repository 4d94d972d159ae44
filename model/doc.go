// Package model is the application layer: everything between the wire (package stream) and the
// screen (package view). It holds no code itself; its sub-packages are
//
//	chat        the conversation engine shared by both front ends: inputs in, effects out, no I/O
//	perform     effects turned into I/O: streams, tools, the session log; a headless driver
//	tools       the built-in and user-defined tools, their schemas and their sandbox
//	sessionlog  the JSON-lines session log and its reader
//	tui         the full-screen front end (Bubble Tea)
//	linemode    the accessible front end: a line mode that only appends
//	e2e         end-to-end tests of the tool loop over real HTTP
//	e2e/tmux    the real binary in a real terminal (tmux): both front ends, one harness
package model
