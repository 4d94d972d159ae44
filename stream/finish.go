package stream

// CutOff says, in words, why a reply whose finish_reason is reason was cut off by the server,
// e.g. "The reply was cut off: the model reached its output limit (finish_reason length)."; ""
// for a reply that ended on its own (stop, tool_calls, or no reason).
func CutOff(reason string) string {
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
	return "The reply was cut off: " + why + " (finish_reason " + reason + ")."
}
