package project

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzMounts reads arbitrary text as the mounts file (vaults.json, the
// project's machine-local configuration): it never panics, an error names
// the file, and every mount it returns has a valid name and an absolute
// folder, so that no caller needs to check again.
func FuzzMounts(f *testing.F) {
	for _, s := range []string{
		`[{"name":"conventions","dir":"/srv/conventions"}]`,
		`[{"name":"project","dir":"/x"},{"name":"user","dir":"/y"},{"name":"Bad_Name","dir":"/z"},{"name":"ok","dir":"relative"}]`,
		`[]`, `null`, `{}`, `[null]`, `[[[[[[[[[[[[[[[[[[[[[[[[[[[[`, `"x"`, "\xff\xfe", "",
		`[{"name":"ok","dir":"/a\u0000b"}]`, `[{"name":"ok","dir":"/../../etc"}]`,
	} {
		f.Add([]byte(s))
	}
	home := f.TempDir()
	env := Env{Home: home, Getenv: func(k string) string {
		if k == "MNEMO_HOME" {
			return filepath.Join(home, "mh")
		}
		return ""
	}}
	p, err := Find(context.Background(), f.TempDir(), env)
	if err != nil {
		f.Fatal(err)
	}
	if err := os.MkdirAll(p.StateDir(), 0o755); err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(p.StateDir(), MountsFile)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ms, err := p.Mounts()
		if err != nil {
			if !strings.Contains(err.Error(), MountsFile) {
				t.Fatalf("Mounts() error %q names no file", err)
			}
			return
		}
		for _, m := range ms {
			if !ValidMountName(m.Name) || !filepath.IsAbs(m.Dir) {
				t.Fatalf("Mounts() of %q = %+v", data, m)
			}
		}
	})
}
