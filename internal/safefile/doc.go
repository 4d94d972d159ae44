// Package safefile opens the files phasechat keeps for the user (session logs, their index,
// the prompt history, MCP logs, configs) so that a path never makes it hang, flood its memory
// or write into a file it was not meant for.
//
// Reading ([Open], [ReadFile]) follows symbolic links (a config kept in a dotfiles repository
// is a link) but accepts only a regular file at the end of them: a directory, a FIFO, a socket
// or a device (a link to /dev/zero) is refused by its type, checked before the open and again
// on what was opened, and a FIFO swapped in between is opened without waiting for a writer.
// What is read is bounded: a file longer than the limit given is refused with [ErrTooLarge],
// and nothing past the limit is ever read, even from a file that grows meanwhile.
//
// Writing ([Create], [OpenAppend]) never follows a symbolic link at the path, accepts only a
// regular file, and refuses one with other hard links ([ErrHardLinked]): writing there would
// change another file (a shell profile linked into the data directory). A file it creates has
// mode 0600; the mode of an existing one is left as it is. Create truncates only after those
// checks, so a refused file is left untouched.
//
// On Unix every rule above holds. Elsewhere (Windows) there are no FIFOs or device paths to
// open by mistake in the same way, symbolic links at a written path are refused by a check
// before the open (not atomically with it), and hard links are not counted.
package safefile
