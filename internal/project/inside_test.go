package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestVault(t *testing.T) {
	tests := []struct {
		name    string
		make    func(t *testing.T, root, outside string) // makes root/.memory
		refused error                                    // nil: the vault is used
	}{
		{"a folder", func(t *testing.T, root, _ string) { mkdir(t, filepath.Join(root, ".memory")) }, nil},
		{"none yet", func(*testing.T, string, string) {}, nil},
		{"a symlink inside the repository", func(t *testing.T, root, _ string) {
			mkdir(t, filepath.Join(root, "docs", "memory"))
			symlink(t, "docs/memory", filepath.Join(root, ".memory"))
		}, nil},
		{"a symlink outside, relative", func(t *testing.T, root, _ string) {
			symlink(t, "../outside", filepath.Join(root, ".memory"))
		}, ErrOutside},
		{"a symlink outside, absolute", func(t *testing.T, root, outside string) {
			symlink(t, outside, filepath.Join(root, ".memory"))
		}, ErrOutside},
		{"a symlink inside that leads outside", func(t *testing.T, root, outside string) {
			symlink(t, outside, filepath.Join(root, "hop"))
			symlink(t, "hop", filepath.Join(root, ".memory"))
		}, ErrOutside},
		{"a symlink to the parent", func(t *testing.T, root, _ string) {
			symlink(t, "..", filepath.Join(root, ".memory"))
		}, ErrOutside},
		{"a dangling symlink", func(t *testing.T, root, _ string) {
			symlink(t, "nowhere", filepath.Join(root, ".memory"))
		}, os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root, outside := filepath.Join(base, "repo"), filepath.Join(base, "outside")
			mkdir(t, filepath.Join(root, ".git"))
			mkdir(t, outside)
			tt.make(t, root, outside)
			p, err := Find(context.Background(), root, testEnv(t))
			if err != nil {
				t.Fatal(err)
			}
			dir, err := p.Vault()
			var ve *VaultError
			switch {
			case tt.refused == nil && err != nil:
				t.Errorf("Vault() = %v, want %s", err, p.VaultDir())
			case tt.refused == nil && dir != p.VaultDir():
				t.Errorf("Vault() = %q, want %q", dir, p.VaultDir())
			case tt.refused != nil && (!errors.As(err, &ve) || !errors.Is(err, tt.refused)):
				t.Errorf("Vault() = %q, %v; want a *VaultError wrapping %v", dir, err, tt.refused)
			}
		})
	}
}

func TestInside(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "vault")
	mkdir(t, root)
	os.WriteFile(filepath.Join(root, "a.md"), nil, 0o644)
	os.WriteFile(filepath.Join(base, "secret.md"), nil, 0o644)
	symlink(t, "a.md", filepath.Join(root, "in.md"))
	symlink(t, "../secret.md", filepath.Join(root, "out.md"))
	symlink(t, filepath.Join(base, "vaultx", "b.md"), filepath.Join(root, "prefix.md")) // shares the prefix "vault"
	mkdir(t, filepath.Join(base, "vaultx"))
	os.WriteFile(filepath.Join(base, "vaultx", "b.md"), nil, 0o644)
	for _, tt := range []struct {
		file string
		want error
	}{
		{"a.md", nil},
		{"in.md", nil},
		{"out.md", ErrOutside},
		{"prefix.md", ErrOutside},
	} {
		_, err := Inside(root, filepath.Join(root, tt.file))
		if (tt.want == nil) != (err == nil) || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("Inside(%s) = %v, want %v", tt.file, err, tt.want)
		}
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
}
