package wire

import "strconv"

// DistinctID is id, or when taken says it is already in use, the first of id_2, id_3 … that
// is not: the one rule by which calls that share an id get distinct ones, whether they
// stream, arrive whole or are read back from a log.
func DistinctID(id string, taken func(string) bool) string {
	out := id
	for n := 2; taken(out); n++ {
		out = id + "_" + strconv.Itoa(n)
	}
	return out
}

// DistinctIDs gives calls that share an id distinct ones, id_2, id_3 … in order (see
// DistinctID), so a whole answer or a logged reply runs every call a stream of it would.
func DistinctIDs(calls []ToolCall) {
	taken := map[string]bool{}
	for i, c := range calls {
		id := DistinctID(c.ID, func(s string) bool { return taken[s] })
		taken[id] = true
		calls[i].ID = id
	}
}
