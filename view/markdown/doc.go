// Package markdown draws an assistant reply's markdown for the chat screen, as it streams:
// a Doc takes the reply's growing text and gives back its rows, complete source lines drawn
// once and never changed by what arrives later (docs/markdown.md, The stability rule), the
// open line drawn with its final styling as it grows, and at another width the rows counted
// from what the first drawing measured and drawn a page at a time, when a window reads them.
//
// CodeBlocks reads a reply's fenced code blocks by the same block rules the drawing follows,
// so the blocks a user copies by number are the blocks the screen shows.
//
// Every byte is sanitised (view/safe) before it is parsed; the only escapes drawn are the
// palette's SGR, and none with Plain.
package markdown
