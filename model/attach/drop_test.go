package attach

import "testing"

func TestDroppedPathIsOneAbsolutePath(t *testing.T) {
	for text, want := range map[string]string{
		"/home/me/shot.png":              "/home/me/shot.png",
		"/home/me/shot.png \n":           "/home/me/shot.png",
		"'/home/me/my shot.png' ":        "/home/me/my shot.png",
		`"/home/me/my shot.png"`:         "/home/me/my shot.png",
		`/home/me/my\ shot.png`:          "/home/me/my shot.png",
		"relative/shot.png":              "",
		"/a.png /b.png":                  "",
		"look at /home/me/shot.png":      "",
		"/home/me/a.png\n/home/me/b.png": "",
		"/home/me/":                      "",
		"":                               "",
	} {
		got, ok := DroppedPath(text)
		if got != want || ok != (want != "") {
			t.Errorf("%q: %q, %v; want %q", text, got, ok, want)
		}
	}
}
