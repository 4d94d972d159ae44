package sessionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/phasechat/phasechat/stream"
)

// Log is what Read found: the messages in order and the usage summed over the requests.
type Log struct {
	Messages []stream.Message
	Usage    stream.Usage
	// Header is the log's first header record, nil for a log written without one.
	Header *Header
	// Started is the time of the first record that has one; nil when none has.
	Started *time.Time
	// CutOff is true when the last line was incomplete (the program stopped mid-write); it was
	// skipped.
	CutOff bool
}

// Read loads a log written by Writer. A last line that is cut off is skipped (CutOff); any
// other line that is not a record is an error naming its line number.
func Read(path string) (Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return Log{}, fmt.Errorf("cannot open the session log: %w", err)
	}
	defer f.Close()
	return decode(f, path)
}

func decode(r io.Reader, name string) (Log, error) {
	var log Log
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			complete := len(line) > 0 && line[len(line)-1] == '\n'
			var rec Record
			if jerr := json.Unmarshal(line, &rec); jerr != nil || !rec.valid() {
				if !complete {
					log.CutOff = true
					return log, nil
				}
				return log, fmt.Errorf("%s line %d is not a session log record", name, n)
			}
			if log.Started == nil && rec.Time != nil {
				log.Started = rec.Time
			}
			switch {
			case rec.Session != nil:
				if log.Header == nil {
					log.Header = rec.Session
				}
			case rec.Message != nil:
				log.Messages = append(log.Messages, *rec.Message)
			default:
				u := *rec.Usage
				log.Usage.PromptTokens += u.PromptTokens
				log.Usage.CompletionTokens += u.CompletionTokens
				log.Usage.TotalTokens += u.TotalTokens
			}
		}
		if errors.Is(err, io.EOF) {
			return log, nil
		}
		if err != nil {
			return log, fmt.Errorf("cannot read the session log: %w", err)
		}
	}
}

func (r Record) valid() bool {
	switch r.Type {
	case "message":
		return r.Message != nil && r.Message.Role != ""
	case "usage":
		return r.Usage != nil
	case "session":
		return r.Session != nil
	}
	return false
}
