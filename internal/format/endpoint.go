package format

import "net/url"

// Endpoint is an API root as the footer, the model picker and the session log show it:
// scheme, host and path, never user info, a query or a fragment (which may hold a key); "?"
// when it is not a URL.
func Endpoint(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return "?"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}
