package sessionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/phasechat/phasechat/internal/safefile"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// Log is what Read found: the messages in order and the usage summed over the requests.
type Log struct {
	Messages []wire.Message
	Usage    wire.Usage
	// UsageReported is true when the log has a usage record: Usage is then what the server
	// reported, else it reported none and Usage is zero.
	UsageReported bool
	// Header is the first header record of the log's conversation, nil for a log written
	// without one.
	Header *Header
	// Models is every model the conversation was held with, in order: the header's, then
	// each one it was switched to.
	Models []string
	// MessageModels is, for each of Messages, the model the conversation was held with when
	// it was written (Models' last then); "" where the log had named none.
	MessageModels []string
	// Started is the time of the first record that has one; nil when none has.
	Started *time.Time
	// CutOff is true when the last line was incomplete (the program stopped mid-write); it was
	// skipped.
	CutOff bool
	// Compactions are all the conversation's compactions, in order; a resumed conversation's
	// requests send the last one's summary in place of the turns it stands for. Each one's
	// After is the user turns of Messages before its record.
	Compactions []chat.Compaction
	// Tallies is what each finished turn used, in order (see chat.SavedTally).
	Tallies []chat.SavedTally
	// Skipped is the number of each other line that holds no readable record (changed on
	// disk, or written by hand), in order; those lines were left out.
	Skipped []int
}

// MaxLogSize is the longest session log Read reads: a longer one is refused, not loaded.
const MaxLogSize = 256 << 20

// Read loads a log written by Writer. A last line that is cut off is skipped (CutOff); any
// other line that is not a record is skipped too and its number kept (Skipped): a damaged line
// loses that record, never the conversation. Only a regular file is read (a FIFO, a device or
// a link to one is refused without waiting), and at most MaxLogSize bytes of it.
func Read(path string) (Log, error) {
	return readUpTo(path, MaxLogSize)
}

// readUpTo is Read with its size limit given.
func readUpTo(path string, limit int64) (Log, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return Log{}, fmt.Errorf("cannot open the session log: %w", err)
	}
	defer f.Close()
	return decode(safefile.Limit(f, limit, "the session log "+path), path)
}

func decode(r io.Reader, name string) (Log, error) {
	var log Log
	br := bufio.NewReaderSize(r, readBuffer)
	var long []byte
	var rec Record       // one for every line: what the log keeps of it is copied out or its own
	var flight *inFlight // the request begun and not final yet
	var done *inFlight   // one superseded, whose storage the next one reuses
	turns := newTallying()
	land := func() { // the request in flight ended where its records stop
		if flight != nil {
			turns.broken()
			log.Messages = append(log.Messages, flight.messages()...)
			log.noteModels()
			if flight.usage != nil {
				log.UsageReported = true
				log.Usage = log.Usage.Add(*flight.usage)
			}
			flight = nil
		}
	}
	for n := 1; ; n++ {
		line, err := readLine(br, &long)
		if err != nil && !errors.Is(err, io.EOF) {
			return log, fmt.Errorf("cannot read the session log: %w", err)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			complete := len(line) > 0 && line[len(line)-1] == '\n'
			if !parseLine(line, &rec) {
				if !complete {
					log.CutOff = true
					land()
					turns.end(&log)
					return log, nil
				}
				log.Skipped = append(log.Skipped, n)
				continue
			}
			if log.Started == nil && rec.Time != nil {
				log.Started = rec.Time
			}
			switch kindOf(&rec) {
			case lineBegin:
				flight = newFlight(spare(&flight, &done)) // one begun before and never final was given up (a retry)
			case lineLive, lineLiveText:
				if flight == nil {
					flight = newFlight(spare(&flight, &done))
				}
				flight.apply(rec.Live)
			case lineFinal:
				done = flight // the final reply supersedes its live records
				flight = nil
				log.Messages = append(log.Messages, *rec.Message)
				log.noteModels()
				turns.replied(&log, rec.Time)
			case lineUser:
				land()
				log.Messages = append(log.Messages, *rec.Message)
				log.noteModels()
				turns.turnBegan(&log, rec.Time)
			case lineNew:
				flight = nil
				turns = newTallying()
				skipped := log.Skipped
				log = Log{Header: rec.Session, Started: rec.Time, Skipped: skipped}
				log.addModel(rec.Session.Model)
			case lineHeader:
				if log.Header == nil {
					log.Header = rec.Session
				}
				log.addModel(rec.Session.Model)
			case lineMessage:
				log.Messages = append(log.Messages, *rec.Message) // how it ended is on it
				log.noteModels()
			case lineCompaction:
				land()
				cp := *rec.Compaction
				cp.After = wire.UserTurns(log.Messages)
				log.Compactions = append(log.Compactions, cp)
			default:
				u := *rec.Usage
				log.UsageReported = true
				log.Usage = log.Usage.Add(u)
				turns.reported(u)
				if flight != nil {
					flight.usage = nil // the request's usage, whole: what it reported before is in it
				}
			}
		}
		if err != nil {
			land()
			turns.end(&log)
			return log, nil
		}
	}
}

// spare is the storage a new request in flight may reuse: the one in flight (given up), else
// the one superseded last; either is forgotten.
func spare(flight, done **inFlight) *inFlight {
	old := *flight
	if old == nil {
		old = *done
	}
	*flight, *done = nil, nil
	return old
}

// readBuffer is the reader's buffer: a line that fits is decoded where it was read, not copied
// out first.
const readBuffer = 1 << 20

// readLine returns the next line as ReadBytes does; it is valid until the next call. A line
// longer than the buffer is gathered in *long, reused from line to line.
func readLine(br *bufio.Reader, long *[]byte) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	*long = append((*long)[:0], line...)
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = br.ReadSlice('\n')
		*long = append(*long, line...)
	}
	return *long, err
}

// addModel notes the conversation going on with model, unless it is none or the same.
func (l *Log) addModel(model string) {
	if model != "" && (len(l.Models) == 0 || l.Models[len(l.Models)-1] != model) {
		l.Models = append(l.Models, model)
	}
}

// Model is the model the conversation was held with last; "" when the log names none.
func (l Log) Model() string {
	if len(l.Models) == 0 {
		return ""
	}
	return l.Models[len(l.Models)-1]
}

// parseLine reads one line of the log into rec; false when it holds no record: its checksum
// does not match, or it is not JSON of a record.
func parseLine(line []byte, rec *Record) bool {
	*rec = Record{}
	body, _, good := unseal(bytes.TrimRight(line, " \t\r\n"))
	if !good {
		return false
	}
	if !readRecord(body, rec) && json.Unmarshal(body, rec) != nil {
		*rec = Record{}
		return false
	}
	return rec.valid()
}

func (r Record) valid() bool {
	switch r.Type {
	case "message":
		return r.Message != nil && r.Message.Role != ""
	case "usage":
		return r.Usage != nil
	case "session":
		return r.Session != nil
	case "live":
		return r.Live != nil && r.Live.What != ""
	case "compaction":
		return r.Compaction != nil && r.Compaction.Summary != "" && r.Compaction.Turns > 0
	}
	return false
}

// noteModels gives the messages added since the last call the model in force now.
func (l *Log) noteModels() {
	for len(l.MessageModels) < len(l.Messages) {
		l.MessageModels = append(l.MessageModels, l.Model())
	}
}
