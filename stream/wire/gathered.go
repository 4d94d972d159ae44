package wire

// gathered is a reply's text or its reasoning as a decoder reassembles it for Result. Once
// left to the caller (FrameDecoder.LeaveText) it is only counted: a caller that gathers the
// text from the updates' events itself does not have the streaming reply held twice.
type gathered struct {
	b    []byte
	n    int  // bytes gathered, kept or not
	left bool // the caller keeps the text: b stays empty
}

func (g *gathered) add(s string) {
	g.n += len(s)
	if !g.left {
		g.b = append(g.b, s...)
	}
}

func (g *gathered) String() string { return string(g.b) }
