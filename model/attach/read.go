package attach

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig reads each kind Sniff accepts
	_ "image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	_ "golang.org/x/image/webp"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/stream/wire"
)

// Limits are the largest file of each kind Read accepts, in bytes.
type Limits struct {
	Text, Image, PDF int64
}

// DefaultLimits keep one attachment within what every supported API takes in one request:
// text well inside a context window, images under the largest per-image limit (a wire
// format with a smaller one refuses it when the request is built, naming its limit).
var DefaultLimits = Limits{Text: 512 << 10, Image: 20 << 20, PDF: 32 << 20}

// File is one attachment as read when its message was sent.
type File struct {
	// Name is the path as the user gave it; Resolved is the file actually read when that
	// went through a symbolic link ("" when it did not).
	Name, Resolved string
	Kind           wire.AttachmentKind
	MediaType      string
	Data           []byte
	// Width and Height are an image's size in pixels; Lines a text file's line count.
	Width, Height, Lines int
	// Redacted is how many configured secrets were removed from a text file's contents.
	Redacted int
}

// Hash is the SHA-256 of the contents, in hex: the name the session store keeps them under.
func (f File) Hash() string {
	h := sha256.Sum256(f.Data)
	return hex.EncodeToString(h[:])
}

// A ReadError says why a file cannot be attached, in words for the user.
type ReadError struct {
	Name string
	Why  string
	Err  error // the cause, when there is one
}

func (e *ReadError) Error() string { return fmt.Sprintf("cannot attach %s: %s", quote(e.Name), e.Why) }
func (e *ReadError) Unwrap() error { return e.Err }

// systemTrees hold files that are not files: reading them can block, never end or change
// between reads.
var systemTrees = []string{"/proc/", "/sys/", "/dev/"}

// Read reads the file at name (relative to dir unless absolute) as an attachment: links
// resolved, a regular file only, within lim for its kind, its kind known by its bytes. Text
// has every secret of secrets removed (counted in Redacted).
func Read(dir, name string, lim Limits, secrets *secret.Set) (File, error) {
	fail := func(why string, err error) (File, error) { return File{}, &ReadError{Name: name, Why: why, Err: err} }
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fail(pathWhy(err), err)
	}
	for _, t := range systemTrees {
		if strings.HasPrefix(real+"/", t) {
			return fail("it is a system file under "+strings.TrimSuffix(t, "/")+", not a document", nil)
		}
	}
	f, err := openNoWait(real)
	if err != nil {
		return fail(pathWhy(err), err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return fail(pathWhy(err), err)
	case fi.IsDir():
		return fail("it is a directory; attach the files in it", nil)
	case !fi.Mode().IsRegular():
		return fail("it is not a regular file (a pipe, device or socket)", nil)
	}
	largest := max(lim.Text, lim.Image, lim.PDF)
	if fi.Size() > largest {
		return fail(fmt.Sprintf("it is %s, more than the %s any attachment may be", format.Bytes(fi.Size()), format.Bytes(largest)), nil)
	}
	data, err := io.ReadAll(io.LimitReader(f, largest+1))
	if err != nil {
		return fail(pathWhy(err), err)
	}
	out, err := FromBytes(name, data, lim, secrets)
	if err == nil && filepath.Clean(real) != filepath.Clean(absOf(path)) {
		out.Resolved = real
	}
	return out, err
}

// FromBytes is the attachment named name holding data (read from standard input, or by
// Read): its kind known by its bytes and within lim for it, text with every secret of
// secrets removed.
func FromBytes(name string, data []byte, lim Limits, secrets *secret.Set) (File, error) {
	fail := func(why string, err error) (File, error) { return File{}, &ReadError{Name: name, Why: why, Err: err} }
	out := File{Name: name, Data: data}
	var ok bool
	if out.Kind, out.MediaType, ok = Sniff(data); !ok {
		return fail(fmt.Sprintf("it is a binary file (%s) that is neither text, an image (PNG, JPEG, GIF, WebP) nor a PDF", format.Bytes(int64(len(data)))), nil)
	}
	if limit, called := lim.of(out.Kind); int64(len(data)) > limit {
		return fail(fmt.Sprintf("it is %s, more than the %s a %s attachment may be", format.Bytes(int64(len(data))), format.Bytes(limit), called), nil)
	}
	switch out.Kind {
	case wire.AttachImage:
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return fail("it looks like an "+out.MediaType+" image but cannot be read as one", err)
		}
		out.Width, out.Height = cfg.Width, cfg.Height
	case wire.AttachText:
		out = out.WithoutSecrets(secrets)
	}
	return out, nil
}

// WithoutSecrets is f with every secret of secrets removed from a text file's contents and
// counted in Redacted; any other file, or a nil secrets, leaves f as it is. It is the one
// place an attachment is redacted: Read and FromBytes call it, and a file read before the
// secrets were known (-a) is given to it once they are.
func (f File) WithoutSecrets(secrets *secret.Set) File {
	if f.Kind != wire.AttachText {
		return f
	}
	text := string(f.Data)
	if secrets != nil {
		if clean := secrets.Redact(text); clean != text {
			f.Redacted += strings.Count(clean, secret.Redacted) - strings.Count(text, secret.Redacted)
			text = clean
			f.Data = []byte(text)
		}
	}
	f.Lines = lineCount(text)
	return f
}

// of is the largest file of kind k, and what a file of that kind is called.
func (l Limits) of(k wire.AttachmentKind) (int64, string) {
	switch k {
	case wire.AttachImage:
		return l.Image, "image"
	case wire.AttachPDF:
		return l.PDF, "pdf"
	}
	return l.Text, "file"
}

// lineCount is how many lines text shows: a last line without a newline counts.
func lineCount(text string) int {
	if text == "" {
		return 0
	}
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

func absOf(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// pathWhy is err in the user's words, without the path the message already names.
func pathWhy(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "there is no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
