package staleness

import (
	"slices"
	"testing"
)

func TestFindRefs(t *testing.T) {
	tests := []struct {
		name, body    string
		paths, idents []string
	}{
		{"backticked path", "Auth lives in `internal/auth/service.go`.", []string{"internal/auth/service.go"}, nil},
		{"file name", "See `main.go` and `go.mod`.", []string{"main.go", "go.mod"}, nil},
		{"identifiers", "`UserService` must not import `billing`; call `auth.Verify()`.", nil, []string{"UserService", "billing", "Verify"}},
		{"plain path", "The script scripts/deploy.sh is gone (see docs/ops/deploy.md).", []string{"scripts/deploy.sh", "docs/ops/deploy.md"}, nil},
		{"commands and urls are not refs", "Run `make deploy` then open `https://x.io/a.html`.", nil, nil},
		{"short and common words", "`id`, `nil`, `true`, `main`", nil, nil},
		{"leading ./ and dedupe", "`./web/app.ts` and web/app.ts", []string{"web/app.ts"}, nil},
		{"parent paths are not the repo", "`../other/x.go`", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := FindRefs(tt.body)
			if !slices.Equal(r.Paths, tt.paths) || !slices.Equal(r.Identifiers, tt.idents) {
				t.Errorf("FindRefs(%q) = %q %q, want %q %q", tt.body, r.Paths, r.Identifiers, tt.paths, tt.idents)
			}
		})
	}
}

func FuzzFindRefs(f *testing.F) {
	f.Add("Auth in `internal/auth/service.go`; `UserService` and scripts/deploy.sh")
	f.Fuzz(func(t *testing.T, body string) {
		r := FindRefs(body)
		for _, p := range r.Paths {
			if p == "" || p[0] == '/' || len(p) > 3 && p[:3] == "../" {
				t.Fatalf("FindRefs(%q) path %q", body, p)
			}
		}
		for _, id := range r.Identifiers {
			if len(id) < 4 {
				t.Fatalf("FindRefs(%q) identifier %q", body, id)
			}
		}
	})
}
