package staleness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMovedByContent: an anchored file moved where git cannot see it yet
// (not committed: a copy and a delete) is found by its content, and
// Follow takes the memory there without re-hashing.
func TestMovedByContent(t *testing.T) {
	r := newRepo(t)
	r.write("cmd/deploy.sh", "#!/bin/sh\nmake deploy\n")
	r.write("cmd/other.sh", "#!/bin/sh\necho other\n")
	r.write("cmd/twin-a.sh", "#!/bin/sh\necho twin\n")
	r.commit("first")
	ctx := context.Background()
	moved := r.memoryAbout("Deploy with cmd/deploy.sh.", "cmd/deploy.sh")
	twin := r.memoryAbout("Twin in cmd/twin-a.sh.", "cmd/twin-a.sh")
	r.write("scripts/release.sh", "#!/bin/sh\nmake deploy\n")  // untracked, same content
	r.write("scripts/release.txt", "#!/bin/sh\nmake deploy\n") // same content, another kind of file
	r.write("b/twin-1.sh", "#!/bin/sh\necho twin\n")
	r.write("b/twin-2.sh", "#!/bin/sh\necho twin\n")
	for _, p := range []string{"cmd/deploy.sh", "cmd/twin-a.sh"} {
		if err := os.Remove(filepath.Join(r.root, p)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		m       string
		reasons string
	}{
		{"one file has its content", "moved", "cmd/deploy.sh was renamed to scripts/release.sh"},
		{"two files have it: neither is named", "twin", "cmd/twin-a.sh was deleted"},
	}
	mems := map[string]*Result{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := moved
			if tt.m == "twin" {
				m = twin
			}
			got := r.verifier().Verify(ctx, m)
			mems[tt.m] = &got
			if got.State != Suspect || strings.Join(got.Reasons, "|") != tt.reasons {
				t.Errorf("Verify = %s %q, want suspect %q", got.State, got.Reasons, tt.reasons)
			}
		})
	}
	res := mems["moved"]
	if res == nil || res.Renames["cmd/deploy.sh"] != "scripts/release.sh" {
		t.Fatalf("Renames = %v", res)
	}
	f := Follow(moved, "cmd/deploy.sh", "scripts/release.sh")
	if f.Body != "Deploy with scripts/release.sh.\n" || f.Anchors.Files[0].Path != "scripts/release.sh" || f.Anchors.Files[0].SHA256 != moved.Anchors.Files[0].SHA256 {
		t.Errorf("Follow = %q %+v: want the path followed, the hash kept", f.Body, f.Anchors)
	}
	if moved.Anchors.Files[0].Path != "cmd/deploy.sh" {
		t.Errorf("Follow changed the memory it was given")
	}
	if got := r.verifier().Verify(ctx, f); got.State != Fresh {
		t.Errorf("after Follow: %+v, want fresh (the content is the same)", got)
	}
}
