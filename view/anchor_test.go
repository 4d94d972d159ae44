package view

import "testing"

func TestRescaleRow(t *testing.T) {
	for _, tc := range []struct {
		name         string
		a            Anchor
		rows, height int
		want         int
	}{
		{"same size keeps the row", Anchor{Entry: 2, Row: 5, Rows: 11}, 11, 10, 5},
		{"the blank row above stays the blank row", Anchor{Entry: 2, Row: 0, Rows: 11}, 21, 20, 0},
		{"a line keeps its place in proportion", Anchor{Entry: 2, Row: 6, Rows: 11}, 21, 20, 11},
		{"the first entry has no blank row", Anchor{Entry: 0, Row: 4, Rows: 10}, 5, 5, 2},
		{"past the end is the last line", Anchor{Entry: 1, Row: 30, Rows: 11}, 4, 3, 3},
	} {
		if got := rescaleRow(tc.a, tc.rows, tc.height); got != tc.want {
			t.Errorf("%s: rescaleRow(%+v, %d, %d) = %d, want %d", tc.name, tc.a, tc.rows, tc.height, got, tc.want)
		}
	}
}
