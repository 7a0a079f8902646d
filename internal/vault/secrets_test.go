package vault

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// Fakes, joined so that no whole one is written here.
var (
	fakeGHP = "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"
	fakeAWS = "AKIA" + "Z7QX4RW2LM9KD3PV"
)

// TestSecretsNamesTheField checks where Secrets says each secret is: the
// header key (one mnemo owns or not) or the body and its line.
func TestSecretsNamesTheField(t *testing.T) {
	parsed, err := memory.Parse("x.md", []byte("---\nname: x\ndescription: d\ntype: project\nmetadata:\n  deploy_token: "+fakeGHP+"\n---\nOne.\nTwo.\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		m    *memory.Memory
		want []string
	}{
		{"body line", memory.New(memory.Header{Name: "x", Description: "d", Type: "project"}, "One.\nTwo.\nUse "+fakeAWS+".\n"),
			[]string{"body: line 3: AWS access key: refused, secrets are never stored"}},
		{"description and why", memory.New(memory.Header{Name: "x", Description: "root pw: Hx9!kq27z", Type: "project", Why: "it was " + fakeGHP}, "b\n"),
			[]string{"description: password", "why: GitHub token"}},
		{"tags", memory.New(memory.Header{Name: "x", Description: "d", Type: "project", Tags: []string{"ci", fakeGHP}}, "b\n"),
			[]string{"tags: GitHub token"}},
		{"a key mnemo does not own", parsed, []string{"metadata: GitHub token"}},
		{"none", memory.New(memory.Header{Name: "x", Description: "Release commit 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2", Type: "project",
			Anchors: memory.Anchors{Commit: "4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2", Files: []memory.FileAnchor{{Path: "internal/auth/key.go", SHA256: "3a7b9c0d12ef4455"}}}},
			"The signing key lives in ~/.ssh/id_ed25519; session fe5e1c67-53e7-4862-81ae-d0e013e3270b.\n"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Secrets(tt.m)
			got := redact.SecretErrors(err)
			if len(got) != len(tt.want) {
				t.Fatalf("Secrets = %v, want %d secrets: %q", err, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i].Error(), w) {
					t.Errorf("secret %d = %q, want it to start %q", i, got[i], w)
				}
			}
		})
	}
}

// TestWritesRefuseSecrets: Create, CreateFree and Update refuse a memory
// holding a secret with an error naming the file and the field, and write
// nothing; a name that holds one is not repeated in the message.
func TestWritesRefuseSecrets(t *testing.T) {
	ctx := context.Background()
	v := mustOpen(t)
	clean := memory.New(memory.Header{Name: "deploys", Description: "How deploys go", Type: "project"}, "make deploy\n")
	if err := v.Create(ctx, clean); err != nil {
		t.Fatal(err)
	}
	secret := func(name string) *memory.Memory {
		return memory.New(memory.Header{Name: name, Description: "The deploy key", Type: "project"}, "It is "+fakeAWS+".\n")
	}
	err := v.Create(ctx, secret("deploy-key"))
	if want := filepath.Join(v.display, "deploy-key.md") + ": body: line 1: AWS access key: refused"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Create = %v, want it to say %q", err, want)
	}
	if !errors.Is(err, redact.ErrSecret) {
		t.Errorf("errors.Is(Create error, redact.ErrSecret) = false")
	}
	if _, err := v.CreateFree(ctx, secret("deploys")); !errors.Is(err, redact.ErrSecret) {
		t.Errorf("CreateFree = %v, want a refused secret", err)
	}
	if _, err := v.Update(ctx, "deploys", func(m *memory.Memory) error { m.Body += "token " + fakeGHP + "\n"; return nil }); err == nil ||
		!strings.Contains(err.Error(), "body: line 2: GitHub token: refused") {
		t.Errorf("Update = %v, want the body's second line refused", err)
	}
	named := memory.New(memory.Header{Name: "k-" + strings.ToLower(fakeAWS), Description: "d", Type: "project"}, "b\n")
	if err := v.Create(ctx, named); err == nil || strings.Contains(strings.ToLower(err.Error()), strings.ToLower(fakeAWS)) {
		t.Errorf("Create of a name holding a key = %v, want a refusal that does not repeat the name", err)
	}
	entries, _ := v.List()
	if len(entries) != 1 {
		t.Errorf("the vault holds %d memories, want only the clean one", len(entries))
	}
	if got, _ := os.ReadFile(v.Path("deploys")); string(got) != string(clean.Render()) {
		t.Errorf("the refused update changed the file:\n%s", got)
	}
	if idx, _ := os.ReadFile(filepath.Join(v.Dir, IndexFile)); strings.Contains(string(idx), fakeAWS) {
		t.Errorf("MEMORY.md holds the key")
	}
}

func TestScanSecrets(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"clean.md":         "---\nname: clean\ndescription: d\ntype: user\n---\nCommit 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2.\n",
		"by-hand.md":       "---\nname: by-hand\ndescription: d\ntype: user\n---\nOne.\nThe token is " + fakeGHP + "\n",
		"MEMORY.md":        "# Memory index\nroot pw: Hx9!kq27z\n",
		"notes/readme.txt": "aws " + fakeAWS + "\n",
		".git/config":      "token = " + fakeGHP + "\n",
		"image.png":        "\x89PNG\x00\x00 " + fakeGHP,
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "by-hand.md"), filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	got, problems := ScanSecrets(dir, ".memory")
	if len(problems) > 0 {
		t.Errorf("ScanSecrets problems = %v", problems)
	}
	want := []Secret{
		{Path: filepath.Join(".memory", "MEMORY.md"), Line: 2, Column: 10, Kind: redact.KindPassword},
		{Path: filepath.Join(".memory", "by-hand.md"), Line: 7, Column: 14, Kind: "github-token"},
		{Path: filepath.Join(".memory", "notes", "readme.txt"), Line: 1, Column: 5, Kind: "aws-access-key"},
	}
	if len(got) != len(want) {
		t.Fatalf("ScanSecrets = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ScanSecrets()[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}
