package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/budget"
)

func TestFuzzyPickerPutsTheBestMatchFirstAndPointsAtIt(t *testing.T) {
	items := []string{"fx/text-then-tool", "fx/tool-then-text", "fx/text", "fx/anthropic-tool", "other/text"}
	p := NewPicker("Pick", items)
	p.Fuzzy = true
	p.Point(3) // the current model
	if p.Chosen() != 3 {
		t.Fatalf("without a filter the pointer stays on the current model: %d", p.Chosen())
	}
	typed := func(s string) []string {
		p, _ = p.Key(keyCtrl('u'))
		for _, r := range s {
			p, _ = p.Key(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		var shown []string
		for _, i := range p.matches {
			shown = append(shown, items[i])
		}
		return shown
	}
	for _, tc := range []struct {
		filter, chosen string
		order          []string
	}{
		{"fx/text", "fx/text", []string{"fx/text", "fx/text-then-tool", "fx/tool-then-text"}},
		{"TEXT", "fx/text", []string{"fx/text", "other/text", "fx/text-then-tool", "fx/tool-then-text"}},
		{"tool", "fx/tool-then-text", []string{"fx/tool-then-text", "fx/text-then-tool", "fx/anthropic-tool"}},
		{"anttool", "fx/anthropic-tool", []string{"fx/anthropic-tool"}},
		{"then text", "fx/text-then-tool", []string{"fx/text-then-tool", "fx/tool-then-text"}},
	} {
		shown := typed(tc.filter)
		if got := items[p.Chosen()]; got != tc.chosen {
			t.Errorf("%q: pointer on %s, want %s (shown %q)", tc.filter, got, tc.chosen, shown)
		}
		if !strings.HasPrefix(strings.Join(shown, ","), strings.Join(tc.order, ",")) {
			t.Errorf("%q: order %q, want it to start %q", tc.filter, shown, tc.order)
		}
	}
	if shown := typed("zzz"); len(shown) != 0 || p.Chosen() != -1 {
		t.Errorf("zzz matches %q", shown)
	}
}

func TestModelPickerOrdersRecentFirstAndShowsWindowAndPrice(t *testing.T) {
	items := []ModelItem{
		{Provider: "a", Model: "one", Budget: budget.Model{Window: 128_000, Price: &budget.Price{In: 0.15, Out: 0.6}}},
		{Provider: "a", Model: "two"},
		{Provider: "b", Model: "three", Budget: budget.Model{Window: 200_000}},
	}
	got := recentFirst(items, []string{"b/three", "gone/model", "a/two"})
	var labels []string
	for _, it := range got {
		labels = append(labels, it.Label())
	}
	if strings.Join(labels, " ") != "b/three a/two a/one" {
		t.Errorf("order %q: want the latest switched to first, then the rest in order", labels)
	}
	for _, tc := range []struct {
		it      ModelItem
		current bool
		want    string
	}{
		{items[0], false, "128k ctx · $0.15 in / $0.6 out per 1M"},
		{items[1], true, "current"},
		{items[2], false, "200k ctx"},
		{ModelItem{Budget: budget.Model{Price: &budget.Price{In: 0.39999999999999997, Out: 1.5999999999999999}}}, false, "$0.4 in / $1.6 out per 1M"},
	} {
		if got := modelDetails(tc.it, tc.current); got != tc.want {
			t.Errorf("details %q, want %q", got, tc.want)
		}
	}
}
