package agent

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
)

// A Registration says where Claude Code finds mnemo: the settings files
// holding each of its hooks, and the files registering its MCP server.
type Registration struct {
	Hooks   map[string][]string // Claude Code event → files with a mnemo handler for it
	Servers []string            // files registering the MCP server "mnemo"
	Plugin  bool                // the mnemo plugin is installed for Claude Code
	// Programs are the distinct mnemo executables the hooks and the MCP
	// server run: a path, or "mnemo" from PATH.
	Programs []string
	// Runs maps each file to the mnemo programs its entries run.
	Runs map[string][]string
	// AutoMemory maps each Claude Code settings file that sets
	// autoMemoryDirectory to its value.
	AutoMemory map[string]string
	// Unreadable maps each file that exists but could not be read or
	// parsed to why: what it registers is unknown, to mnemo as to the
	// agent.
	Unreadable map[string]string
}

// note records that file runs prog.
func (r *Registration) note(file, prog string) {
	if !slices.Contains(r.Programs, prog) {
		r.Programs = append(r.Programs, prog)
	}
	if !slices.Contains(r.Runs[file], prog) {
		r.Runs[file] = append(r.Runs[file], prog)
	}
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
	r := Registration{Hooks: map[string][]string{}, Runs: map[string][]string{}, AutoMemory: map[string]string{}, Unreadable: map[string]string{}}
	read := func(path string) *object {
		o, err := readObject(path)
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = pe.Err // the path is the key
		}
		if err != nil {
			r.Unreadable[path] = err.Error()
		}
		return o
	}
	for _, f := range []string{
		filepath.Join(o.Root, ".claude", "settings.json"),
		filepath.Join(o.Root, ".claude", "settings.local.json"),
		filepath.Join(o.ClaudeHome, "settings.json"),
	} {
		s := read(f)
		if v, ok := s.vals["autoMemoryDirectory"].(string); ok {
			r.AutoMemory[f] = v
		}
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
						prog, _ := firstWord(cmd)
						r.note(f, prog)
					}
				}
			}
		}
	}
	mcp := filepath.Join(o.Root, ".mcp.json")
	if prog, ok := server(read(mcp)); ok {
		r.Servers = append(r.Servers, mcp)
		r.note(mcp, prog)
	}
	app := read(o.claudeJSON())
	if prog, ok := server(app); ok {
		r.Servers = append(r.Servers, o.claudeJSON()+" (user)")
		r.note(o.claudeJSON(), prog)
	}
	if projects, _ := app.vals["projects"].(*object); projects != nil {
		if p, _ := projects.vals[o.Root].(*object); p != nil {
			if prog, ok := server(p); ok {
				r.Servers = append(r.Servers, o.claudeJSON()+" (local)")
				r.note(o.claudeJSON(), prog)
			}
		}
	}
	if plugins := read(filepath.Join(o.ClaudeHome, "plugins", "installed_plugins.json")); plugins != nil {
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

// readObject reads the JSON object file at path: an empty object when
// there is none, or when it cannot be read or parsed, with why.
func readObject(path string) (*object, error) {
	data, _, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return newObject(), nil
	}
	if err != nil {
		return newObject(), err
	}
	o, err := parseJSON(data)
	if err != nil {
		return newObject(), err
	}
	return o, nil
}

// server returns the command of mnemo's MCP server in o's mcpServers.
func server(o *object) (string, bool) {
	servers, _ := o.vals["mcpServers"].(*object)
	if servers == nil {
		return "", false
	}
	s, ok := servers.vals[ServerName]
	if !ok {
		return "", false
	}
	sobj, _ := s.(*object)
	if sobj == nil {
		return "", true
	}
	cmd, _ := sobj.vals["command"].(string)
	return cmd, true
}
