package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxToolName is the longest function name OpenAI accepts.
const maxToolName = 64

// ToolName is the name the model calls a server's tool by: "<server>__<tool>", every
// character outside a-z A-Z 0-9 _ - replaced by _, and when that is longer than 64
// characters, clipped and ended with "-" and 8 hex digits of a hash of the unsanitised pair:
// the same server and tool always get the same name.
func ToolName(server, tool string) string {
	name := sanitize(server) + "__" + sanitize(tool)
	if len(name) <= maxToolName {
		return name
	}
	return clipWithHash(name, server, tool)
}

// distinctName is ToolName for a tool whose sanitised name another tool of the same server
// shares ("a.b" and "a_b"): both get the hash, so neither depends on the other's order.
func distinctName(server, tool string) string {
	return clipWithHash(sanitize(server)+"__"+sanitize(tool), server, tool)
}

func clipWithHash(name, server, tool string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	suffix := "-" + hex.EncodeToString(sum[:4])
	if len(name)+len(suffix) <= maxToolName {
		return name + suffix
	}
	return name[:maxToolName-len(suffix)] + suffix
}

func sanitize(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
