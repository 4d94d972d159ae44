package wire

// usageSeen is a stream's usage as the server reported it last. Every decoder puts it on the
// update of the frame that reported it, and on the Result, the same way: each gets a copy of
// its own, so changing one changes no other.
type usageSeen struct {
	last     *Usage
	reported *Usage // the usage last put on an update
}

// set records the usage a frame reported.
func (s *usageSeen) set(u Usage) { s.last = &u }

// report puts the usage on u when it was set since the last update that carried it.
func (s *usageSeen) report(u *Update) {
	if s.last != s.reported {
		s.reported = s.last
		u.Usage = s.result()
	}
}

// result is a copy of the last usage set, nil when none was.
func (s *usageSeen) result() *Usage {
	if s.last == nil {
		return nil
	}
	usage := *s.last
	return &usage
}
