package sessions

// spent is what a conversation's requests used: tokens in and out and the cost in US dollars.
type spent struct {
	in, out int
	cost    float64
}

func (a spent) plus(b spent) spent  { return spent{a.in + b.in, a.out + b.out, a.cost + b.cost} }
func (a spent) minus(b spent) spent { return spent{a.in - b.in, a.out - b.out, a.cost - b.cost} }

// addTo adds a to an index entry's totals.
func (a spent) addTo(m *Meta) {
	m.TokensIn += a.in
	m.TokensOut += a.out
	m.CostUSD += a.cost
}
