package safe

import "testing"

func TestNoColor(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"unset", map[string]string{"TERM": "xterm"}, false},
		{"set but empty", map[string]string{"NO_COLOR": ""}, false},
		{"set to 1", map[string]string{"NO_COLOR": "1"}, true},
		{"any value, even 0", map[string]string{"NO_COLOR": "0"}, true},
		{"any value, even false", map[string]string{"NO_COLOR": "false"}, true},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		if got := NoColor(lookup); got != tc.want {
			t.Errorf("%s: NoColor = %v, want %v", tc.name, got, tc.want)
		}
	}
}
