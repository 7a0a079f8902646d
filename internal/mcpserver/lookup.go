package mcpserver

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// A found memory is a memory and the vault that holds it.
type found struct {
	where string // "project" or "user"
	v     *vault.Vault
	m     *memory.Memory
}

// errNoSuchMemory is wrapped by find's error when no vault holds the name.
var errNoSuchMemory = errors.New("no such memory")

// memoryName accepts a name as models write it: the name, its file name, or
// its /memories path.
func memoryName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "/memories/")
	s = strings.TrimPrefix(s, "memory://")
	return strings.TrimSuffix(s, ".md")
}

// find loads the memory called name from the project vault, else the user vault.
func (s *Server) find(name string) (found, error) {
	name = memoryName(name)
	if !memory.ValidName(name) {
		return found{}, fmt.Errorf("%q is not a memory name: names are lowercase letters, digits and '-'", name)
	}
	for _, f := range []found{{where: "project", v: s.cfg.Project}, {where: "user", v: s.cfg.User}} {
		m, err := f.v.Load(name)
		if errors.Is(err, vault.ErrNotFound) {
			continue
		}
		if err != nil {
			return found{}, err
		}
		f.m = m
		return f, nil
	}
	return found{}, fmt.Errorf("%w named %q: recall or list shows the names there are", errNoSuchMemory, name)
}

// refuseInvalid says why a memory that fails validation is not given to
// the agent (what lint calls an error: a name that is not its file's, a
// bad type, control characters); nil when m is valid. The index leaves
// such files out of recall the same way.
func refuseInvalid(name string, m *memory.Memory) error {
	problems := memory.Problems(m.Validate(name + ".md"))
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s.md fails validation, so mnemo gives it to no agent until a person fixes it ('mnemo lint' names %d problem(s)): %w",
		name, len(problems), problems[0])
}

// vaultOf returns the vault a result's source names.
func (s *Server) vaultOf(where string) *vault.Vault {
	if where == "user" {
		return s.cfg.User
	}
	return s.cfg.Project
}
