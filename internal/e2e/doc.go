// Package e2e holds end-to-end tests of the tool loop over real HTTP: the chat engine driven
// headlessly by perform.Driver, talking to the fixture server on 127.0.0.1, running real
// built-in and user-defined tools, and keeping a session log. It has no code of its own; the
// tests are the criteria of the agent loop (docs/architecture.md: Tool calls, Running tools, Outcomes, P6).
package e2e
