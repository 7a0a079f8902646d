package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGuaranteesNameRealTests: every test, fuzz target and script the
// README's Guarantees table names as holding a promise exists, so the
// table cannot promise on the strength of a test that was renamed or
// removed.
func TestGuaranteesNameRealTests(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n## Guarantees")
	if !ok {
		t.Fatal("README.md has no Guarantees section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	funcs, scripts := testNames(t, "../../internal")
	named := regexp.MustCompile("`((?:Test|Fuzz|Benchmark)[A-Za-z0-9_]+|[a-z0-9_]+\\.txtar)`")
	n := 0
	for _, m := range named.FindAllStringSubmatch(table, -1) {
		n++
		name := m[1]
		if strings.HasSuffix(name, ".txtar") {
			if !scripts[name] {
				t.Errorf("the Guarantees table names %s, which no testdata/script holds", name)
			}
		} else if !funcs[name] {
			t.Errorf("the Guarantees table names %s, which no test file declares", name)
		}
	}
	if n < 50 {
		t.Errorf("found %d test names in the Guarantees table, want the table's (50 or more)", n)
	}
}

// testNames returns the test functions declared in the _test.go files
// under root, and the base names of the testscript files.
func testNames(t *testing.T, root string) (funcs, scripts map[string]bool) {
	t.Helper()
	funcs, scripts = make(map[string]bool), make(map[string]bool)
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)[A-Za-z0-9_]+)\(`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			return nil
		case strings.HasSuffix(path, ".txtar") && strings.Contains(path, "testdata"):
			scripts[d.Name()] = true
		case strings.HasSuffix(path, "_test.go"):
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range decl.FindAllStringSubmatch(string(data), -1) {
				funcs[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return funcs, scripts
}
