package config

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// Variables are the names of the environment variables a header value reads, each written
// ${NAME}; a "$" not followed by "{NAME}" is kept as it is. A ${ without its } or a name that
// cannot be a variable's is an error.
func Variables(value string) ([]string, error) {
	var names []string
	for {
		i := strings.Index(value, "${")
		if i < 0 {
			return names, nil
		}
		j := strings.IndexByte(value[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("%q opens ${ without a closing }", value)
		}
		name := value[i+2 : i+j]
		if !validEnvName().MatchString(name) {
			return nil, fmt.Errorf("${%s} is not an environment variable name", name)
		}
		names = append(names, name)
		value = value[i+j+1:]
	}
}

// credentialHeaders are header names whose values are credentials.
var credentialHeaders = []string{"authorization", "api-key", "x-api-key", "x-goog-api-key", "proxy-authorization", "cookie"}

// literalSecrets lists the keys of f that hold a credential written into the file itself.
func literalSecrets(f *File) []string {
	var keys []string
	for _, name := range f.Order {
		p := f.Providers[name]
		if p == nil {
			continue
		}
		if p.APIKey != "" {
			keys = append(keys, "provider."+name+".api_key")
		}
		for h, v := range p.Headers {
			if containsString(credentialHeaders, strings.ToLower(h)) && !strings.Contains(v, "${") {
				keys = append(keys, "provider."+name+".headers."+h)
			}
		}
	}
	return keys
}

// permissionWarning warns when a file that holds a literal credential can be read by others.
func permissionWarning(path string, f *File) string {
	keys := literalSecrets(f)
	if len(keys) == 0 {
		return ""
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm()&0o077 == 0 {
		return ""
	}
	return fmt.Sprintf("%s holds a key (%s) and can be read by other users (mode %s): run chmod 600 %s, or move the key to api_key_env or api_key_cmd",
		path, strings.Join(keys, ", "), info.Mode().Perm()&fs.ModePerm, path)
}
