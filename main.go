// Command phasechat is a terminal chat client for OpenAI-compatible streaming chat APIs.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "phasechat: the chat is being built; see README.md")
	os.Exit(2)
}
