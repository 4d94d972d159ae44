// Package tmux runs the phasechat binary in a real terminal: a tmux pane of its own tmux
// server, against the fixture server in the test process. It has no code of its own. The
// full-screen chat is read with capture-pane (what the screen shows) and the line mode with
// pipe-pane (every byte the terminal received); keys are typed with send-keys. The binary is
// built once per run from the module root; every test skips, saying why, when tmux is missing
// (.ci/run installs it).
package tmux
