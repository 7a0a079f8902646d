package cli

import (
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// reviews says, for each packed result of the project or user vault that
// no one reviewed (a file written outside mnemo, or one mnemo disowned),
// why it waits for review ([provenance.ReviewOf]), as MCP recall marks it.
// A mounted vault is read-only and reviewed where it lives: it is not marked.
func reviews(f *Factory, packed []recall.Packed) map[index.Key]string {
	out := make(map[index.Key]string)
	secrets := redact.New(redact.Options{})
	ls := make(vault.Loaders) // a pass a vault: git asked once, not once a result
	defer ls.Close()
	for _, p := range packed {
		if p.Source != "project" && p.Source != "user" {
			continue
		}
		v, err := f.Vault(p.Source == "user")
		if err != nil {
			continue
		}
		m, err := ls.Load(v, p.Name)
		if err != nil {
			continue
		}
		if r := provenance.ReviewOf(m, secrets); r != "" {
			out[p.Key] = r
		}
	}
	return out
}
