package app

// UsageError is a mistake on the command line found only once it is acted on (a config file
// that is not there, a session id that names no session or several): the command line's
// exit code 2.
type UsageError struct{ error }

func (e UsageError) Unwrap() error { return e.error }
