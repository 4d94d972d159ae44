package tui

import (
	"testing"

	"github.com/phasechat/phasechat/view"
)

// countingRenderer counts every call the model makes to its renderer.
type countingRenderer struct {
	screenRenderer
	calls int
}

func (c *countingRenderer) Render(f view.Frame) view.Screen {
	c.calls++
	return c.screenRenderer.Render(f)
}

func (c *countingRenderer) Layout(f view.Frame) (int, int) {
	c.calls++
	return c.screenRenderer.Layout(f)
}

func (c *countingRenderer) TopAnchor(f view.Frame) view.Anchor {
	c.calls++
	return c.screenRenderer.TopAnchor(f)
}

func (c *countingRenderer) ScrollUpFor(f view.Frame, a view.Anchor) int {
	c.calls++
	return c.screenRenderer.ScrollUpFor(f, a)
}

func (c *countingRenderer) Reveal(f view.Frame, entry, card int) int {
	c.calls++
	return c.screenRenderer.Reveal(f, entry, card)
}

func (c *countingRenderer) LastKeysPage(f view.Frame) int {
	c.calls++
	return c.screenRenderer.LastKeysPage(f)
}

func (c *countingRenderer) SetStyles(st view.Styles) {
	c.calls++
	c.screenRenderer.SetStyles(st)
}

// scrolledUpMidReply is a long reply streaming, 300 frames in, scrolled up two pages.
func scrolledUpMidReply(t *testing.T) *harness {
	h := newHarness(t, "long", 80, 24)
	h.submit("count")
	for range 300 {
		h.feedStream()
	}
	h.send(keyPgUp)
	h.send(keyPgUp)
	return h
}

// While scrolled up, a stream message asks the renderer nothing: 100 of them leave its call
// count as it was, and only View lays the screen out. That View draws what the lines-up rule
// drew: the window's bottom as many lines further above the tail as the transcript grew, the
// same screen a model drawn after every message shows.
func TestStreamWhileScrolledUpAsksTheRendererNothing(t *testing.T) {
	h := scrolledUpMidReply(t)
	reading := h.transcriptRows()
	up, grownFrom := h.m.linesUp(), h.maxScroll()
	if up == 0 {
		t.Fatal("PgUp did not scroll")
	}
	counter := &countingRenderer{screenRenderer: h.m.renderer}
	h.m.renderer = counter
	for range 100 {
		h.feedStream()
	}
	if counter.calls != 0 {
		t.Fatalf("100 stream messages called the renderer %d times", counter.calls)
	}
	got := h.m.View().Content
	if counter.calls == 0 {
		t.Fatal("View drew nothing")
	}
	h.expect("streaming while scrolled up", writing())
	if h.transcriptRows() != reading {
		t.Fatalf("the lines being read moved:\n%s\n---- was ----\n%s", h.transcriptRows(), reading)
	}

	f := h.m.frame()
	f.ScrollUp = up + h.maxScroll() - grownFrom
	if want := view.NewRenderer(view.PlainStyles()).Render(f).Content; got != want {
		t.Fatalf("the screen is not the lines-up rule's:\n%s\n---- want ----\n%s", got, want)
	}
	drawn := scrolledUpMidReply(t)
	for range 100 {
		drawn.feedStream()
		drawn.m.View()
	}
	if want := drawn.m.View().Content; got != want {
		t.Fatalf("drawn once at the end:\n%s\n---- drawn after every message ----\n%s", got, want)
	}
}
