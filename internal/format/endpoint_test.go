package format

import (
	"strings"
	"testing"
)

func TestEndpointLabelHidesCredentials(t *testing.T) {
	if got := Endpoint("https://user:secret@example.com/v1?key=abc"); strings.Contains(got, "secret") || strings.Contains(got, "abc") {
		t.Fatalf("label %q leaks credentials", got)
	}
	if got := Endpoint("http://127.0.0.1:8080/v1"); got != "http://127.0.0.1:8080/v1" {
		t.Fatalf("a plain endpoint is changed: %q", got)
	}
}
