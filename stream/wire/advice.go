package wire

// RetryHelps says what retrying a failed request can do: RetryUseless when the same request
// must fail again until the user changes something (the conversation is too long, the key is
// missing, rejected or cannot be read), RetrySoon when it failed before the server
// sent a byte of an answer and a quick second try often works (a refused connection, a
// gateway's 502/503/504, a 500 with no body), RetryMaybe otherwise.
type RetryHelps uint8

const (
	RetryMaybe RetryHelps = iota
	RetrySoon
	RetryUseless
)

// Retry says whether retrying the request that failed with e can help.
func (e *Error) Retry() RetryHelps {
	if e == nil {
		return RetryMaybe
	}
	return e.Helps
}
