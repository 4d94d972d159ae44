package linemode

import "time"

// escWait is how long a lone ESC byte waits for more bytes before it counts as the Esc key:
// a terminal sends an escape sequence (an arrow key, Alt+letter) in one write, so its bytes
// follow the ESC at once, while a person pressing Esc sends the ESC alone.
const escWait = 30 * time.Millisecond

// Key is one key press read in single-key mode: the byte the terminal sent (Enter is '\n'
// after the terminal's CR-to-NL mapping, or '\r'; Tab is '\t'; Ctrl+D is 0x04), or KeyEsc.
type Key byte

// KeyEsc is the Esc key pressed on its own.
const KeyEsc Key = 0x1b

// keyDecoder turns the bytes of single-key mode into key presses. It drops escape sequences
// whole — CSI (ESC [ parameters final byte), SS3 (ESC O x) and Alt+key (ESC x) — even when
// they are split across reads, and reports a lone ESC as KeyEsc only once escWait has passed
// without another byte (the caller runs the clock: see Feed and Expire). Every other byte is
// a key. The zero keyDecoder is ready.
type keyDecoder struct{ state escState }

type escState uint8

const (
	ground    escState = iota
	afterEsc           // an ESC, nothing after it yet
	inCSI              // ESC [ and perhaps parameter and intermediate bytes
	beforeSS3          // ESC O: one more byte ends it
)

// Feed decodes one read. waiting is true when the bytes end inside a possible escape
// sequence: the caller then calls Expire after escWait unless more bytes come first.
func (d *keyDecoder) Feed(b []byte) (keys []Key, waiting bool) {
	for _, c := range b {
		switch d.state {
		case ground:
			if c == byte(KeyEsc) {
				d.state = afterEsc
			} else {
				keys = append(keys, Key(c))
			}
		case afterEsc:
			switch c {
			case '[':
				d.state = inCSI
			case 'O':
				d.state = beforeSS3
			case byte(KeyEsc):
				// ESC ESC: the first was the prefix of an Alt+Esc; the second may start anything.
			default:
				d.state = ground // Alt+key
			}
		case inCSI:
			switch {
			case c >= 0x40 && c <= 0x7e:
				d.state = ground // the final byte
			case c < 0x20 || c > 0x7e:
				// Not part of a CSI: the sequence was cut short. This byte is a key again.
				d.state = ground
				more, _ := d.Feed([]byte{c})
				keys = append(keys, more...)
			}
		case beforeSS3:
			d.state = ground
		}
	}
	return keys, d.state != ground
}

// Expire tells the decoder escWait has passed since the last Feed: a pending lone ESC is
// the Esc key; an unfinished sequence is dropped.
func (d *keyDecoder) Expire() []Key {
	st := d.state
	d.state = ground
	if st == afterEsc {
		return []Key{KeyEsc}
	}
	return nil
}
