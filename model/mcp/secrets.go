package mcp

import (
	"os"
	"slices"
	"strings"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/tools"
)

// registerSecrets makes the credentials cfg gives its servers secrets of the run, before any
// server starts: the bearer tokens, the values of credential headers and of env entries whose
// name (or the variable they read) says they hold a credential. The registry then hides their
// values from every record (tool results, the session, the output) and drops the variables
// that hold them from command tools' environment (tools.Registry.HiddenEnv). Each server still
// gets its own: the caller reads the environment with the rules in force before this.
func registerSecrets(cfg Config, reg *tools.Registry, lookup func(string) (string, bool)) {
	if reg == nil {
		return
	}
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if reg.Secrets == nil {
		reg.Secrets = secret.New()
	}
	set := reg.Secrets
	hide := func(name string) {
		if !slices.Contains(reg.HiddenEnv, name) {
			reg.HiddenEnv = append(reg.HiddenEnv, name)
		}
	}
	expandAll := func(v string) string {
		return varRef().ReplaceAllStringFunc(v, func(ref string) string {
			val, _ := lookup(ref[2 : len(ref)-1])
			return val
		})
	}
	readsCredential := func(name, v string) bool {
		if secret.CredentialHeader(name) {
			return true
		}
		for _, m := range varRef().FindAllStringSubmatch(v, -1) {
			if secret.CredentialParam(m[1]) {
				return true
			}
		}
		return false
	}
	for _, name := range sortedNames(cfg) {
		s := cfg[name]
		if !s.IsEnabled() {
			continue
		}
		if s.BearerTokenEnv != "" {
			hide(s.BearerTokenEnv)
			if v, ok := lookup(s.BearerTokenEnv); ok {
				set.Add(strings.TrimSpace(v))
			}
		}
		for _, entries := range []map[string]string{s.Headers, s.Env} {
			for k, v := range entries {
				if !readsCredential(k, v) {
					continue
				}
				for _, m := range varRef().FindAllStringSubmatch(v, -1) {
					hide(m[1])
				}
				set.AddHeader(expandAll(v))
			}
		}
	}
}
