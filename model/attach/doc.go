// Package attach reads the files a user hands the model — `@path` mentions, /attach, -a — and
// says what they are: text (sent with its path, delimited), an image (PNG, JPEG, GIF or WebP,
// known by its bytes, never its name) or a PDF. Anything else is refused before a request is
// built, with a reason the user can act on.
//
// A file is read once, when the message is sent: a regular file only (a FIFO, device or
// socket is refused without blocking on it), within the size limit of its kind, links
// resolved and the resolved path kept so the user sees what was read. Reading is the only
// I/O here; the engine receives the bytes as data.
package attach
