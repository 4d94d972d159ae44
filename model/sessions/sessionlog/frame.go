package sessionlog

import (
	"fmt"
	"hash/crc32"
	"strings"
)

// A record's line ends in its checksum: the line is the record's JSON object with a last member
// "crc" holding the CRC-32C (eight lowercase hex digits) of that object as it reads without the
// member. A line cut short by a crash, or changed on disk, then never reads as a record. Lines
// without the member (logs written before it) are read as they always were.
const (
	sumKey    = `,"crc":"`
	sumSuffix = len(sumKey) + 8 + len(`"}`)
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// seal appends line's checksum member to line, the JSON object of one record, and a newline.
func seal(line []byte) []byte {
	sum := crc32.Checksum(line, castagnoli)
	line = append(line[:len(line)-1], sumKey...)
	line = fmt.Appendf(line, "%08x", sum)
	return append(line, '"', '}', '\n')
}

// unseal checks the checksum of line (one line of the log, its newline cut) and returns the
// record's JSON as it was sealed, in line's own storage (which it changes). A line without a
// checksum is returned as it is, sealed false; good is false only for a checksum that does not
// match.
func unseal(line []byte) (body []byte, sealed, good bool) {
	n := len(line)
	if n < sumSuffix+1 || line[n-1] != '}' || line[n-2] != '"' || string(line[n-sumSuffix:n-10]) != sumKey {
		return line, false, true
	}
	want, ok := hex8(line[n-10 : n-2])
	if !ok {
		return line, true, false
	}
	sum := crc32.Update(0, castagnoli, line[:n-sumSuffix])
	sum = crc32.Update(sum, castagnoli, []byte{'}'})
	if sum != want {
		return line, true, false
	}
	line[n-sumSuffix] = '}'
	return line[:n-sumSuffix+1], true, true
}

// hex8 reads eight lowercase hex digits.
func hex8(b []byte) (uint32, bool) {
	var v uint32
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uint32(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint32(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// SkippedNote says which lines of the log could not be read, for the user: "" when none.
func (l Log) SkippedNote() string {
	if len(l.Skipped) == 0 {
		return ""
	}
	lines := make([]string, len(l.Skipped))
	for i, n := range l.Skipped {
		lines[i] = fmt.Sprint(n)
	}
	word, at := "record", "line"
	if len(l.Skipped) > 1 {
		word, at = "records", "lines"
	}
	return fmt.Sprintf("skipped %d unreadable %s (%s %s)", len(l.Skipped), word, at, strings.Join(lines, ", "))
}
