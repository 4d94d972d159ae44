package main

import (
	"testing"

	"github.com/phasechat/phasechat/model/config"
)

// TestConfigMeasureReachesTheOptions: the file's measure is what the full-screen mode draws
// replies at; without it the renderer's default stands.
func TestConfigMeasureReachesTheOptions(t *testing.T) {
	var o chatOptions
	applyConfig(&o, &config.File{})
	if o.measure != 0 {
		t.Fatalf("no measure in the file: got %d, want 0 (the default)", o.measure)
	}
	applyConfig(&o, &config.File{Measure: 72})
	if o.measure != 72 {
		t.Fatalf("measure = 72 in the file: got %d", o.measure)
	}
}
