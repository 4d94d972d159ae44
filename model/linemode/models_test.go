package linemode

import (
	"context"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream"
)

// TestModelCommandSwitchesProvider: "/model" prints the models numbered; a number switches,
// and the next message goes to that provider's server with the conversation so far.
func TestModelCommandSwitchesProvider(t *testing.T) {
	first, second := fixtureURL(t), fixtureURL(t)
	var out syncBuffer
	o := sessionOptions(t, first, "text", t.TempDir(), false, pipeWith(t, "hello\n/model\n3\nthink\n/model\nnope\n"), &out)
	o.Chat.SetModel("first", "text")
	secondClient := stream.NewClient(second, "")
	firstClient := o.Performer.Client
	o.Performer.Route = func(_ context.Context, name string) (*stream.Client, error) {
		if name == "second" {
			return secondClient, nil
		}
		return firstClient, nil
	}
	o.Models = func(context.Context) ([]chat.ModelChoice, []string) {
		return []chat.ModelChoice{{Provider: "first", Model: "text"}, {Provider: "second", Model: "text"}, {Provider: "second", Model: "reasoning"}},
			[]string{"third: connection refused"}
	}
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"You: /model\nModels: 3. Type a number and Enter to switch; anything else keeps the current one.\n" +
			"1. first/text (current)\n2. second/text\n3. second/reasoning\nNote: Not listed: third: connection refused\nYou: 3\n" +
			"Note: Switched to second/reasoning: the next request goes there, with the conversation so far.\nYou: think\n",
		"Assistant: Hello! I thought about it first",
		"3. second/reasoning (current)\nNote: Not listed: third: connection refused\nYou: nope\nNote: Kept second/reasoning.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks\n%s\ngot\n%s", want, got)
		}
	}
	if p, m := o.Chat.Model(); p != "second" || m != "reasoning" {
		t.Errorf("model %s/%s", p, m)
	}
}

// TestCutOffReplyIsSaid: a reply cut off by the server is said after it and in its status.
func TestCutOffReplyIsSaid(t *testing.T) {
	var out syncBuffer
	o := sessionOptions(t, fixtureURL(t), "length", t.TempDir(), false, pipeWith(t, "go\n"), &out)
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	const why = "The reply was cut off: the model reached its output limit (finish_reason length)."
	if got := out.String(); !strings.Contains(got, "Note: "+why+"\nStatus: "+why+"\n") {
		t.Errorf("output\n%s", got)
	}
}

func TestModelListSaysContextAndPriceInWords(t *testing.T) {
	for _, tc := range []struct {
		m    budget.Model
		want string
	}{
		{budget.Model{}, ""},
		{budget.Model{Window: 128_000}, ", 128k context"},
		{budget.Model{Window: 200_000, Price: &budget.Price{In: 3, Out: 15}}, ", 200k context, $3 in and $15 out per million tokens"},
	} {
		if got := modelFacts(tc.m); got != tc.want {
			t.Errorf("modelFacts(%+v) = %q, want %q", tc.m, got, tc.want)
		}
	}
}
