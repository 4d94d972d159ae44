package wire

// CutOff says, in words, why a reply whose finish_reason is reason was cut off by the server,
// e.g. "The reply was cut off: the model reached its output limit (finish_reason length)."; ""
// for a reply that ended on its own (stop, tool_calls, or no reason).
func CutOff(reason string) string { return cutOffAs(reason, "finish_reason "+reason) }

// CutOff is CutOff of the result's finish reason, in the words of the format that said it
// (e.g. "stop_reason max_tokens" on Anthropic Messages).
func (r Result) CutOff() string {
	said := r.FinishSaid
	if said == "" {
		said = "finish_reason " + r.FinishReason
	}
	return cutOffAs(r.FinishReason, said)
}

// cutOffAs is CutOff naming the reason as said (the field and value the server sent).
func cutOffAs(reason, said string) string {
	var why string
	switch reason {
	case "length":
		why = "the model reached its output limit"
	case "content_filter":
		why = "the provider's content filter stopped it"
	case "error":
		why = "the provider reported an error while writing it"
	default:
		return ""
	}
	return "The reply was cut off: " + why + " (" + said + ")."
}
