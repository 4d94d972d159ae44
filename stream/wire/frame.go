package wire

// Frame is one SSE event: its event name (empty for the default "message") and its data
// lines joined with "\n". The strings own their bytes.
type Frame struct{ Event, Data string }
