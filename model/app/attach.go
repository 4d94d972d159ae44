package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/attach"
	"github.com/phasechat/phasechat/stream/wire"
)

// Attached are the files given with -a, read before anything is configured or sent, so that
// a file that cannot be attached ends the run before any request; their secrets are removed
// once those are known (WithoutSecrets).
type Attached []attach.File

// StdinName is what a file read from standard input (-a -) is called.
const StdinName = "stdin"

// ReadAttachments reads each of paths ("-": stdin) as an attachment, relative to the working
// directory. The first that cannot be attached is the error, in the user's words.
func ReadAttachments(paths []string, stdin io.Reader) (Attached, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("the working directory cannot be read: %w", err)
	}
	lim := attach.DefaultLimits
	var out Attached
	for _, p := range paths {
		var f attach.File
		if p == "-" {
			largest := max(lim.Text, lim.Image, lim.PDF)
			data, rerr := io.ReadAll(io.LimitReader(stdin, largest+1))
			if rerr != nil {
				return nil, fmt.Errorf("standard input cannot be read: %w", rerr)
			}
			if int64(len(data)) > largest {
				return nil, fmt.Errorf("cannot attach standard input: it is more than the %s any attachment may be", format.Bytes(largest))
			}
			f, err = attach.FromBytes(StdinName, data, lim, nil)
		} else {
			f, err = attach.Read(dir, p, lim, nil)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// WithoutSecrets is a with every secret of secrets removed from its text files.
func (a Attached) WithoutSecrets(secrets *secret.Set) Attached {
	out := make(Attached, len(a))
	for i, f := range a {
		out[i] = f.WithoutSecrets(secrets)
	}
	return out
}

// Files are the attachments as sent in the wire format w, each image over w's limit scaled
// down to fit it (see attach.Fit), and what the user should be told about them: each file's
// chip, where a link led, that an image was made smaller, and how many secrets were removed.
func (a Attached) Files(w wire.Wire) (files []wire.Attachment, notes []string, err error) {
	for _, f := range a {
		was := f
		var smaller bool
		if f, smaller, err = attach.Fit(f, wire.MaxImageBytes(w), w.Label()); err != nil {
			return nil, nil, err
		}
		note := "attached " + f.Chip()
		if f.Resolved != "" {
			note += " (the link leads to " + f.Resolved + ")"
		}
		if smaller {
			note += fmt.Sprintf("; made smaller to fit the %s %s takes (it was %d×%d, %s)", format.Bytes(int64(wire.MaxImageBytes(w))),
				w.Label(), was.Width, was.Height, format.Bytes(int64(len(was.Data))))
		}
		if f.Redacted > 0 {
			note += fmt.Sprintf("; %d %s removed from it", f.Redacted, format.Plural(f.Redacted, "secret was", "secrets were"))
		}
		files, notes = append(files, f.Attachment()), append(notes, note)
	}
	return files, notes, nil
}

// Title is a session title for a prompt sent with files: the prompt, else the files' names.
func (a Attached) Title(prompt string) string {
	if prompt != "" || len(a) == 0 {
		return prompt
	}
	names := make([]string, len(a))
	for i, f := range a {
		names[i] = filepath.Base(f.Name)
	}
	return strings.Join(names, ", ")
}

// FileReader reads the files a front end attaches (/attach, @path mentions) relative to Dir,
// removing Secrets from text files and fitting images to Wire's limit. It is the front ends'
// only way to the files: they call it from a command or their own loop, never from Update.
type FileReader struct {
	Dir     string
	Secrets *secret.Set
	Wire    wire.Wire
}

// Read reads paths as attachments; notes say what was attached (see Attached.Files).
func (r FileReader) Read(paths []string) ([]wire.Attachment, []string, error) {
	var got Attached
	for _, p := range paths {
		f, err := attach.Read(r.Dir, p, attach.DefaultLimits, r.Secrets)
		if err != nil {
			return nil, nil, err
		}
		got = append(got, f)
	}
	return got.Files(r.Wire)
}

// Mentioned reads the files text's @path mentions name (an @word naming no regular file
// stays text and is not read).
func (r FileReader) Mentioned(text string) ([]wire.Attachment, []string, error) {
	isFile := func(p string) bool {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.Dir, p)
		}
		fi, err := os.Stat(p)
		return err == nil && fi.Mode().IsRegular()
	}
	var paths []string
	for _, m := range attach.Mentions(text, isFile) {
		paths = append(paths, m.Path)
	}
	return r.Read(paths)
}

// List is what an @mention may complete to under Dir (see attach.List).
func (r FileReader) List() ([]string, error) { return attach.List(r.Dir) }

// Pasted is data (the clipboard's image) as the attachment named name.
func (r FileReader) Pasted(name string, data []byte) ([]wire.Attachment, []string, error) {
	f, err := attach.FromBytes(name, data, attach.DefaultLimits, r.Secrets)
	if err != nil {
		return nil, nil, err
	}
	return Attached{f}.Files(r.Wire)
}
