package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// A native is a memory file of a vault written outside mnemo that no one
// has reviewed, with what checking it found.
type native struct {
	provenance.Native
	entry vault.Entry
	v     *vault.Vault
	user  bool
}

// review says why a native waits for review, as the inbox shows it.
func (n native) review() string { return n.Review() }

// natives lists the unreviewed memory files of the project and user
// vaults; a vault that does not exist has none.
func (f *Factory) natives() []native {
	secrets := redact.New(redact.Options{})
	var out []native
	for _, user := range []bool{false, true} {
		v, err := f.Vault(user)
		if err != nil {
			continue
		}
		entries, _ := v.List()
		byName := make(map[string]vault.Entry, len(entries))
		ms := make([]*memory.Memory, len(entries))
		for i, e := range entries {
			ms[i], byName[e.Name] = e.Memory, e
		}
		for _, n := range provenance.Natives(ms, secrets) {
			out = append(out, native{Native: n, entry: byName[n.Name], v: v, user: user})
		}
	}
	return out
}

// reviewCheck is doctor's account of the natives.
func reviewCheck(f *Factory) check {
	ns := f.natives()
	if len(ns) == 0 {
		return check{Name: "review", Status: "ok", Detail: "no memory file written outside mnemo waits for review"}
	}
	var planted, why []string
	for _, n := range ns {
		if n.Planted() {
			planted = append(planted, n.Name+" "+n.Problem())
		}
		if n.Why != "" {
			why = append(why, n.Name+" "+n.Why)
		}
	}
	c := check{Name: "review", Status: "warn", Fix: "mnemo inbox",
		Detail: fmt.Sprintf("%s written outside mnemo %s not reviewed (MEMORY.md and the hooks leave %s out)", plural.N(len(ns), "memory file", "memory files"), plural.Of(len(ns), "is", "are"), plural.Of(len(ns), "it", "them"))}
	if len(why) > 0 {
		c.Detail += "; " + strings.Join(why, "; ")
	}
	if len(planted) > 0 {
		c.Detail += fmt.Sprintf("; %d hold an instruction or a secret: %s", len(planted), strings.Join(planted, "; "))
	}
	return c
}

// approveNative reviews a memory file written outside mnemo: it gets a
// source, and MEMORY.md lists it.
func approveNative(ctx context.Context, n native) (string, error) {
	_, err := n.v.Update(ctx, n.Name, func(m *memory.Memory) error {
		m.Approve()
		return nil
	})
	if err != nil {
		return "", err
	}
	return n.v.Path(n.Name), nil
}
