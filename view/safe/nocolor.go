package safe

// NoColor reports whether the user asked for output without colour: NO_COLOR is set to any
// non-empty value (https://no-color.org); set but empty means nothing. environ is os.LookupEnv
// in production and a map lookup in tests.
func NoColor(environ func(key string) (value string, ok bool)) bool {
	v, ok := environ("NO_COLOR")
	return ok && v != ""
}
