package linemode

import (
	"os/exec"
	"strings"
	"testing"
)

// Only the full-screen front end draws with styles: the line mode and one-shot mode write
// plain text, so neither links the styling library (nor anything that does).
func TestPlainFrontEndsDoNotLinkStyling(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH:", err)
	}
	for _, pkg := range []string{"github.com/phasechat/phasechat/model/linemode", "github.com/phasechat/phasechat/model/oneshot"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.Contains(dep, "lipgloss") {
				why, _ := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, pkg).Output()
				var chain []string
				for _, line := range strings.Split(string(why), "\n") {
					if strings.Contains(line, "phasechat/") && strings.Contains(line, "lipgloss") ||
						strings.Contains(line, "phasechat/view") && strings.HasPrefix(line, "github.com/phasechat") {
						chain = append(chain, line)
					}
				}
				t.Errorf("%s links %s; the packages of ours on the way:\n%s", pkg, dep, strings.Join(chain, "\n"))
				break
			}
		}
	}
}
