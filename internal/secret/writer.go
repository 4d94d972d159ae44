package secret

import "io"

// Writer is w with the set's secrets hidden in what is written. Each Write must be a whole
// unit (a line, an object): a secret split across two writes is not found.
func (s *Set) Writer(w io.Writer) io.Writer { return redactingWriter{s, w} }

type redactingWriter struct {
	secrets *Set
	w       io.Writer
}

func (r redactingWriter) Write(b []byte) (int, error) {
	if _, err := r.w.Write(r.secrets.RedactBytes(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}
