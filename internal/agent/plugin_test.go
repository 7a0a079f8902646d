package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// The plugin and marketplace files are checked against the shapes Claude
// Code documents (plugins-reference, plugin-marketplaces), and against the
// hooks 'mnemo init' writes, so the two ways of installing agree.

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestPluginManifest(t *testing.T) {
	root := filepath.Join("..", "..")
	var market struct {
		Name  string `json:"name"`
		Owner struct {
			Name string `json:"name"`
		} `json:"owner"`
		Plugins []struct {
			Name, Source, Description, Version string
		} `json:"plugins"`
	}
	readJSON(t, filepath.Join(root, ".claude-plugin", "marketplace.json"), &market)
	if !kebab.MatchString(market.Name) || market.Owner.Name == "" || len(market.Plugins) != 1 {
		t.Fatalf("marketplace.json = %+v", market)
	}
	p := market.Plugins[0]
	dir := filepath.Join(root, filepath.FromSlash(p.Source))
	var manifest struct {
		Name, Version, Description, License string
		Author                              struct{ Name string }
		Keywords                            []string
	}
	readJSON(t, filepath.Join(dir, ".claude-plugin", "plugin.json"), &manifest)
	if manifest.Name != p.Name || !kebab.MatchString(manifest.Name) || manifest.Version != p.Version {
		t.Errorf("plugin.json %+v does not match the marketplace entry %+v", manifest, p)
	}

	var hooks struct {
		Description string
		Hooks       map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	readJSON(t, filepath.Join(dir, "hooks", "hooks.json"), &hooks)
	if len(hooks.Hooks) != len(claudeHooks) {
		t.Errorf("hooks.json has %d events, init registers %d", len(hooks.Hooks), len(claudeHooks))
	}
	for _, spec := range claudeHooks {
		groups := hooks.Hooks[spec.event]
		if len(groups) != 1 || len(groups[0].Hooks) != 1 {
			t.Errorf("hooks.json %s = %+v, want one group with one handler", spec.event, groups)
			continue
		}
		h := groups[0].Hooks[0]
		if groups[0].Matcher != spec.matcher || h.Type != "command" || h.Command != "mnemo hook "+spec.command || h.Timeout != spec.timeout {
			t.Errorf("hooks.json %s = %+v %+v, want what init writes: %+v", spec.event, groups[0].Matcher, h, spec)
		}
	}

	var mcp struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	readJSON(t, filepath.Join(dir, ".mcp.json"), &mcp)
	if s, ok := mcp.MCPServers[ServerName]; !ok || s.Command != "mnemo" || len(s.Args) != 1 || s.Args[0] != "mcp" {
		t.Errorf(".mcp.json = %+v", mcp)
	}
}
