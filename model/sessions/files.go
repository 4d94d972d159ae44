package sessions

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

// The store keeps the bytes of attachments in its files folder, each once, named by the
// SHA-256 of its contents (the hash the log's attachment records carry): a log line stays a
// line, and a file attached in ten conversations is kept once.
const filesFolder = "files"

// maxKeptFile bounds what is read back from the files folder: no attachment is larger.
const maxKeptFile = 32 << 20

func (s *Store) filePath(hash string) string { return filepath.Join(s.dir, filesFolder, hash) }

// validHash reports whether h is a SHA-256 in lower-case hex, and so a safe file name.
func validHash(h string) bool {
	return len(h) == sha256.Size*2 && strings.Trim(h, "0123456789abcdef") == ""
}

// keepFiles writes the bytes of each attachment of r's message into the files folder, unless
// they are there already. A session's log runs it (sessionlog.Writer.KeepFilesWith) just
// before writing the line naming them, so a log never names a file the store does not have.
func (s *Store) keepFiles(r chat.Record) error {
	return keepFilesIn(filepath.Join(s.dir, filesFolder), r)
}

// keepFilesIn is how the store keeps a record's files in a folder: KeepFiles.
var keepFilesIn = KeepFiles

// FilesBeside is the folder a log written outside the store (--log FILE) keeps its
// attachments in, FILE.files, laid out as the store's files folder: the log stays lines of
// text a person or a script can read, and it and the folder are what to move together.
func FilesBeside(logPath string) string { return logPath + ".files" }

// KeepFiles writes the bytes of each attachment of r's message into dir, named by their
// SHA-256, unless they are there already. Call it before the record is written, so a log never
// names a file its folder does not have.
func KeepFiles(dir string, r chat.Record) error {
	if r.Message == nil {
		return nil
	}
	for _, a := range r.Message.Attachments {
		if a.Data == nil || !validHash(a.Hash) {
			continue
		}
		if err := keepFileIn(dir, a.Hash, a.Data); err != nil {
			return fmt.Errorf("the attachment %q could not be kept: %w", a.Name, err)
		}
	}
	return nil
}

func keepFileIn(dir, hash string, data []byte) error {
	path := filepath.Join(dir, hash)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() == int64(len(data)) {
		now := time.Now()
		os.Chtimes(path, now, now) // reused: not collected before the line naming it is written
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".keep-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// fillFiles gives each attachment of msgs its bytes back from the files folder when they are
// there and match their hash; one missing or changed keeps Data nil, which a request then
// refuses to send, saying so.
func (s *Store) fillFiles(msgs []wire.Message) { FillFiles(filepath.Join(s.dir, filesFolder), msgs) }

// FillFiles gives each attachment of msgs without its bytes the file named by its hash in
// dir, when it is there and still has that hash (see KeepFiles).
func FillFiles(dir string, msgs []wire.Message) {
	for i := range msgs {
		for j := range msgs[i].Attachments {
			a := &msgs[i].Attachments[j]
			if a.Data == nil && validHash(a.Hash) {
				a.Data = readFileIn(dir, a.Hash)
			}
		}
	}
}

// readFileIn is the kept file named hash in dir, or nil when it is missing, not a regular
// file, too large, or its bytes no longer have that hash.
func readFileIn(dir, hash string) []byte {
	f, err := openNoFollow(filepath.Join(dir, hash))
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeptFile+1))
	if err != nil || len(data) > maxKeptFile {
		return nil
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != hash {
		return nil
	}
	return data
}

// writeAttachments lists a message's attachments for the Markdown export: each chip with the
// kept file it is in (under the sessions folder), and a text file's contents inline in a fence.
func writeAttachments(b *strings.Builder, files []wire.Attachment) {
	for _, a := range files {
		fmt.Fprintf(b, "\n- %s", safe.Line(a.Chip()))
		if validHash(a.Hash) {
			fmt.Fprintf(b, " (kept as %s/%s in the sessions folder)", filesFolder, a.Hash)
		}
		b.WriteString("\n")
		if a.Kind == wire.AttachText && a.Data != nil {
			b.WriteString("\n" + fenced("", string(a.Data)) + "\n")
		}
	}
}
