package agent

import (
	"fmt"
	"slices"
)

// Names lists the agents mnemo can be wired into; the first is the default.
var Names = []string{"claude-code", "codex", "gemini", "cursor"}

// Install wires mnemo into the agent's configuration. Running it again
// changes nothing.
func Install(agent string, o Options) ([]Change, error) { return apply(agent, o, true) }

// Uninstall removes exactly what Install added, and then each folder
// Install created that it left empty.
func Uninstall(agent string, o Options) ([]Change, error) {
	changes, err := apply(agent, o, false)
	if err != nil {
		return changes, err
	}
	removed, err := o.removeEmptied(changes)
	changes = append(changes, removed...)
	if err != nil {
		return changes, fmt.Errorf("agent: %s: %w", agent, err)
	}
	return changes, nil
}

func apply(agent string, o Options, add bool) ([]Change, error) {
	var changes []Change
	var err error
	switch agent {
	case "", "claude-code":
		changes, err = claudeCode(o, add)
	case "codex":
		changes, err = codex(o, add)
	case "gemini":
		changes, err = gemini(o, add)
	case "cursor":
		changes, err = cursor(o, add)
	default:
		return nil, fmt.Errorf("agent: %q is not one of %v", agent, Names)
	}
	if err != nil {
		return changes, fmt.Errorf("agent: %s: %w", agent, err)
	}
	return changes, nil
}

// Valid reports whether name is an agent mnemo knows.
func Valid(name string) bool { return slices.Contains(Names, name) }
