package wire

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// responsesDecoder decodes an OpenAI Responses stream: response.created, then output items
// (message, function_call, reasoning), each opened by response.output_item.added, filled by
// deltas (output_text, refusal, function_call_arguments, reasoning_summary_text,
// reasoning_text) and closed by response.output_item.done, and last response.completed,
// response.incomplete or response.failed; an error event may come anywhere.
//
// A function call is routed by its item_id (or, without one, its output_index), starts at its
// item's start and is ready at function_call_arguments.done or its item's done, whichever
// comes first (so it runs mid-stream). The .done events carry whole texts: what the deltas
// did not bring is added from them, so a server that sends only the .done events loses
// nothing. Reasoning items are kept verbatim, to be sent back. The stream is complete only at
// response.completed or response.incomplete.
type responsesDecoder struct {
	replyState
	part      string          // the text part the last delta went to (item/kind/index)
	partSoFar partDigest      // the length and hash of that part's text shown so far
	seen      map[string]bool // parts that got text, and items that got any
	anyCalls  bool
}

func newResponsesDecoder() *responsesDecoder {
	return &responsesDecoder{replyState: replyState{wire: WireResponses, endEvent: "response.completed"}}
}

// responsesEvent is every field phasechat reads from any Responses event; each event is
// decoded once, into this (an item, rarer, is decoded again from Item).
type responsesEvent struct {
	Type         string          `json:"type"`
	ItemID       string          `json:"item_id"`
	OutputIndex  int             `json:"output_index"`
	ContentIndex int             `json:"content_index"`
	SummaryIndex int             `json:"summary_index"`
	Delta        string          `json:"delta"`
	DeltaHalves  lone            // the surrogate halves Delta left lone
	Text         string          `json:"text"`      // output_text.done, reasoning_*.done
	Refusal      string          `json:"refusal"`   // refusal.done
	Arguments    string          `json:"arguments"` // function_call_arguments.done
	Item         json.RawMessage `json:"item"`
	Response     *responsesBody  `json:"response"`
}

// responsesBody is the part of a response object phasechat reads at the response's end.
type responsesBody struct {
	Status            string          `json:"status"`
	Usage             *responsesUsage `json:"usage"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error json.RawMessage `json:"error"`
}

type responsesUsage struct {
	InputTokens   int              `json:"input_tokens"`
	OutputTokens  int              `json:"output_tokens"`
	TotalTokens   int              `json:"total_tokens"`
	InputDetails  wireTokenDetails `json:"input_tokens_details"`
	OutputDetails wireTokenDetails `json:"output_tokens_details"`
}

// responsesItem is an output item.
type responsesItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
	Content []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
}

// Frame decodes one event. Frames after the response's end are ignored.
func (d *responsesDecoder) Frame(f Frame) Update {
	u := d.frame(f)
	d.lend.keep(&u)
	return u
}

func (d *responsesDecoder) frame(f Frame) Update {
	u, data, decode := d.begin(f)
	if !decode {
		return u
	}
	var ev responsesEvent
	if !decodeResponsesEvent(f.Data, &ev) {
		d.undecodable(&u)
		return u
	}
	if ev.Type == "" {
		ev.Type = f.Event
	}
	d.apply(&u, &ev, data)
	d.usage.report(&u)
	return u
}

// apply applies one decoded event; data is its JSON (for an error event's message).
func (d *responsesDecoder) apply(u *Update, ev *responsesEvent, data []byte) {
	switch ev.Type {
	case "response.output_text.delta", "response.refusal.delta":
		d.textDelta(u, ev, "c", ev.ContentIndex, false)
	case "response.reasoning_summary_text.delta":
		d.textDelta(u, ev, "s", ev.SummaryIndex, true)
	case "response.reasoning_text.delta":
		d.textDelta(u, ev, "r", ev.ContentIndex, true)
	case "response.output_text.done":
		d.textDone(u, ev, "c", ev.ContentIndex, ev.Text, false)
	case "response.refusal.done":
		d.textDone(u, ev, "c", ev.ContentIndex, ev.Refusal, false)
	case "response.reasoning_summary_text.done":
		d.textDone(u, ev, "s", ev.SummaryIndex, ev.Text, true)
	case "response.reasoning_text.done":
		d.textDone(u, ev, "r", ev.ContentIndex, ev.Text, true)
	case "response.function_call_arguments.delta":
		if c := d.call(ev); c != nil {
			u.Calls = d.calls.delta(c, ev.Delta, u.Calls)
			toolEvent(u, c.name)
		}
	case "response.function_call_arguments.done":
		if c := d.call(ev); c != nil {
			u.Calls = d.calls.complete(c, ev.Arguments, u.Calls)
			u.Calls = d.calls.ready(c, u.Calls)
			toolEvent(u, c.name)
		}
	case "response.output_item.added":
		d.itemAdded(u, ev)
	case "response.output_item.done":
		d.itemDone(u, ev)
	case "response.completed", "response.incomplete":
		d.end(u, ev)
	case "response.failed":
		d.failed(u, ev)
	case "error":
		d.fail(u, serverError(data))
	}
}

func (d *responsesDecoder) mark(key string) {
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	d.seen[key] = true
}

func partKey(itemID, kind string, index int) string {
	return itemID + "/" + kind + strconv.Itoa(index)
}

// samePart reports whether key is partKey(itemID, kind, index), without building that key.
func samePart(key, itemID, kind string, index int) bool {
	var digits [20]byte
	n := strconv.AppendInt(digits[:0], int64(index), 10)
	rest, ok := strings.CutPrefix(key, itemID)
	if !ok || len(rest) != 1+len(kind)+len(n) || rest[0] != '/' {
		return false
	}
	return rest[1:1+len(kind)] == kind && rest[1+len(kind):] == string(n)
}

func (d *responsesDecoder) textDelta(u *Update, ev *responsesEvent, kind string, index int, reasoning bool) {
	if !samePart(d.part, ev.ItemID, kind, index) {
		key := partKey(ev.ItemID, kind, index)
		d.flushHalf(u, reasoning)
		d.part = key
		d.mark(key)
		d.mark(ev.ItemID)
		if reasoning {
			d.split = true
		}
		d.partSoFar.reset()
	}
	d.partSoFar.add(d.textHalves(u, ev.Delta, ev.DeltaHalves, reasoning))
}

// textDone adds what a part's deltas did not bring of its whole text: all of it when no delta
// came, the rest when the deltas brought a prefix of it.
func (d *responsesDecoder) textDone(u *Update, ev *responsesEvent, kind string, index int, whole string, reasoning bool) {
	key := partKey(ev.ItemID, kind, index)
	if !d.seen[key] {
		d.mark(key)
		d.mark(ev.ItemID)
		d.part = ""
		if reasoning {
			d.split = true
		}
		if whole != "" {
			d.text(u, whole, reasoning)
		}
		return
	}
	if key != d.part {
		return
	}
	if len(whole) > d.partSoFar.n && d.partSoFar.prefixOf(whole) {
		d.partSoFar.add(d.completeHalf(u, whole[d.partSoFar.n:], reasoning))
	}
}

// call is the function call an arguments event is for: by item_id, else by output_index.
func (d *responsesDecoder) call(ev *responsesEvent) *blockCall {
	if ev.ItemID != "" {
		if c := d.calls.get(ev.ItemID); c != nil {
			return c
		}
	}
	return d.calls.get("#" + strconv.Itoa(ev.OutputIndex))
}

func (d *responsesDecoder) item(ev *responsesEvent) (responsesItem, bool) {
	var it responsesItem
	if len(ev.Item) == 0 || ev.Item[0] != '{' {
		return it, false
	}
	err := json.Unmarshal(ev.Item, &it)
	return it, err == nil || errors.As(err, new(*json.UnmarshalTypeError))
}

func (d *responsesDecoder) itemAdded(u *Update, ev *responsesEvent) {
	it, ok := d.item(ev)
	if !ok || it.Type != "function_call" {
		return
	}
	c := d.openCall(u, ev, &it)
	u.Calls = d.calls.delta(c, it.Arguments, u.Calls)
}

func (d *responsesDecoder) openCall(u *Update, ev *responsesEvent, it *responsesItem) *blockCall {
	id := it.CallID
	if id == "" {
		id = it.ID
	}
	key := it.ID
	if key == "" {
		key = "#" + strconv.Itoa(ev.OutputIndex)
	}
	var c *blockCall
	c, u.Calls = d.calls.open(key, id, it.Name, u.Calls)
	c.itemID = it.ID
	d.calls.alias("#"+strconv.Itoa(ev.OutputIndex), c)
	d.anyCalls = true
	toolEvent(u, it.Name)
	return c
}

// itemDone ends an item: a function call becomes ready with its whole arguments; a message or
// reasoning item whose text no delta brought gives it now; a reasoning item is kept.
func (d *responsesDecoder) itemDone(u *Update, ev *responsesEvent) {
	it, ok := d.item(ev)
	if !ok {
		return
	}
	switch it.Type {
	case "function_call":
		c := d.call(&responsesEvent{ItemID: it.ID, OutputIndex: ev.OutputIndex})
		if c == nil {
			c = d.openCall(u, ev, &it)
		}
		u.Calls = d.calls.complete(c, it.Arguments, u.Calls)
		u.Calls = d.calls.ready(c, u.Calls)
		toolEvent(u, c.name)
	case "message":
		if !d.seen[it.ID] {
			for i, part := range it.Content {
				text := part.Text
				if part.Type == "refusal" {
					text = part.Refusal
				}
				d.textDone(u, &responsesEvent{ItemID: it.ID}, "c", i, text, false)
			}
		}
	case "reasoning":
		if !d.seen[it.ID] {
			for i, s := range it.Summary {
				d.textDone(u, &responsesEvent{ItemID: it.ID}, "s", i, s.Text, true)
			}
			for i, c := range it.Content {
				d.textDone(u, &responsesEvent{ItemID: it.ID}, "r", i, c.Text, true)
			}
		}
		d.replay = append(d.replay, append(json.RawMessage(nil), ev.Item...))
		u.Kept += len(ev.Item)
	}
}

func (d *responsesDecoder) setUsageFrom(us *responsesUsage) {
	if us != nil {
		d.setUsage(Usage{PromptTokens: us.InputTokens, CompletionTokens: us.OutputTokens, TotalTokens: us.TotalTokens,
			CachedTokens: us.InputDetails.CachedTokens, ReasoningTokens: us.OutputDetails.ReasoningTokens})
	}
}

// end concludes at response.completed or response.incomplete. An incomplete response was
// cut off: finish length (content_filter when that was the reason).
func (d *responsesDecoder) end(u *Update, ev *responsesEvent) {
	r := ev.Response
	status := "completed"
	if ev.Type == "response.incomplete" {
		status = "incomplete"
	}
	if r != nil {
		d.setUsageFrom(r.Usage)
		if r.Status == "incomplete" {
			status = r.Status
		}
	}
	switch {
	case status == "incomplete":
		d.finish, d.said = "length", "status incomplete"
		if r != nil && r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "" {
			d.said = "incomplete_details.reason " + r.IncompleteDetails.Reason
			if r.IncompleteDetails.Reason == "content_filter" {
				d.finish = "content_filter"
			}
		}
	case d.anyCalls:
		d.finish = "tool_calls"
	default:
		d.finish = "stop"
	}
	d.conclude(u)
}

// failed ends the stream at response.failed, with the response's own error.
func (d *responsesDecoder) failed(u *Update, ev *responsesEvent) {
	e := &Error{Message: "The server reported that the response failed",
		Cause: errors.New("stream: response.failed with no error")}
	if r := ev.Response; r != nil {
		d.setUsageFrom(r.Usage)
		if len(r.Error) > 0 && r.Error[0] == '{' {
			e = serverError(r.Error)
		}
	}
	d.fail(u, e)
	d.conclude(u)
}
