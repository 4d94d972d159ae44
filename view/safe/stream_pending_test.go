package safe

// Pending returns how many appended bytes are held back as an unfinished UTF-8 encoding (0–3).
func (s *Stream) Pending() int { return s.n }
