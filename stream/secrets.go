package stream

import "github.com/phasechat/phasechat/internal/secret"

// secrets is what the client hides in everything it hands on: Secrets, plus the key it sends
// and the credentials of its base URL, so that a Client made without a Set is still safe.
func (c *Client) secrets() *secret.Set {
	set := c.Secrets.With(c.APIKey)
	set.AddURL(c.BaseURL)
	for name, v := range c.Headers {
		if secret.CredentialHeader(name) {
			set.AddHeader(v)
		}
	}
	return set
}
