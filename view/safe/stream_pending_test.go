package safe

// Pending returns how many appended bytes are held back undecided (0 to maxHeld).
func (s *Stream) Pending() int { return s.nheld }
