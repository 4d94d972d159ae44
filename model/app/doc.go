// Package app is the composition root of the chat, the line mode and one-shot mode: the
// settings of a session, resolved once from the command line, the config file and the
// environment (Load, Resolve), and the session assembled from them (Open): providers and their
// clients, tools, MCP servers, the recorded conversation, the engine and its performer.
package app
