package agent

import (
	"os"
	"path/filepath"
	"slices"
)

// A Registration says where Claude Code finds mnemo: the settings files
// holding each of its hooks, and the files registering its MCP server.
type Registration struct {
	Hooks   map[string][]string // Claude Code event → files with a mnemo handler for it
	Servers []string            // files registering the MCP server "mnemo"
	Plugin  bool                // the mnemo plugin is installed for Claude Code
	// Programs are the distinct mnemo executables the hooks run.
	Programs []string
}

// Missing returns the events mnemo handles that no settings file or plugin wires.
func (r Registration) Missing() []string {
	var out []string
	for _, s := range claudeHooks {
		if len(r.Hooks[s.event]) == 0 && !r.Plugin {
			out = append(out, s.event)
		}
	}
	return out
}

// Inspect reads every place Claude Code takes hooks and MCP servers from,
// at every scope, for mnemo's entries.
func Inspect(o Options) Registration {
	r := Registration{Hooks: map[string][]string{}}
	for _, f := range []string{
		filepath.Join(o.Root, ".claude", "settings.json"),
		filepath.Join(o.Root, ".claude", "settings.local.json"),
		filepath.Join(o.ClaudeHome, "settings.json"),
	} {
		s := readObject(f)
		hooks, _ := s.vals["hooks"].(*object)
		if hooks == nil {
			continue
		}
		for _, event := range hooks.keys {
			groups, _ := hooks.vals[event].([]any)
			for _, g := range groups {
				gobj, _ := g.(*object)
				if gobj == nil {
					continue
				}
				list, _ := gobj.vals["hooks"].([]any)
				for _, h := range list {
					if isMnemoHook(h) {
						r.Hooks[event] = append(r.Hooks[event], f)
						cmd, _ := h.(*object).vals["command"].(string)
						if prog, _ := firstWord(cmd); !slices.Contains(r.Programs, prog) {
							r.Programs = append(r.Programs, prog)
						}
					}
				}
			}
		}
	}
	if hasServer(readObject(filepath.Join(o.Root, ".mcp.json"))) {
		r.Servers = append(r.Servers, filepath.Join(o.Root, ".mcp.json"))
	}
	app := readObject(o.claudeJSON())
	if hasServer(app) {
		r.Servers = append(r.Servers, o.claudeJSON()+" (user)")
	}
	if projects, _ := app.vals["projects"].(*object); projects != nil {
		if p, _ := projects.vals[o.Root].(*object); p != nil && hasServer(p) {
			r.Servers = append(r.Servers, o.claudeJSON()+" (local)")
		}
	}
	if plugins := readObject(filepath.Join(o.ClaudeHome, "plugins", "installed_plugins.json")); plugins != nil {
		if all, _ := plugins.vals["plugins"].(*object); all != nil {
			for _, k := range all.keys {
				if k == "mnemo" || len(k) > 6 && k[:6] == "mnemo@" {
					r.Plugin = true
				}
			}
		}
	}
	return r
}

func readObject(path string) *object {
	data, err := os.ReadFile(path)
	if err != nil {
		return newObject()
	}
	o, err := parseJSON(data)
	if err != nil {
		return newObject()
	}
	return o
}

func hasServer(o *object) bool {
	servers, _ := o.vals["mcpServers"].(*object)
	if servers == nil {
		return false
	}
	_, ok := servers.vals[ServerName]
	return ok
}
