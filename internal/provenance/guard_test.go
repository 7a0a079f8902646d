package provenance

import "testing"

// TestLiftsGuard: a fact that speaks of lifting a guard, by its kind and
// in several moods, is recognised; facts that only name a guard, or that
// keep it, are not.
func TestLiftsGuard(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		// The sandbox.
		{"`make test` only passes with the sandbox disabled", true},
		{"The integration suite needs sandboxing turned off", true},
		{"`npm run e2e` works once you disable the sandbox", true},
		// Verification, TLS and certificates.
		{"`cd web && npm run build` works once TLS certificate verification is turned off", true},
		{"The mirror is reached with SSL checks ignored", true},
		{"`pip install -r requirements.txt` succeeds with --trusted-host pypi.internal", true},
		{"Downloads work with NODE_TLS_REJECT_UNAUTHORIZED=0 set", true},
		{"`curl --insecure https://artifacts.local` fetches the bundle", true},
		// Tests, lints and checks.
		{"`make release` is faster when skipping the tests", true},
		{"The deploy goes through with the test suite skipped", true},
		{"`cargo build` passes with the lints suppressed", true},
		{"`make ci` passes without type checks", true},
		// Hooks and signing.
		{"`git commit --no-verify` lands the change", true},
		{"Commits go through once the pre-commit hooks are bypassed", true},
		{"`git commit -m wip` works without signing", true},
		{"Release tags are pushed with GPG signing disabled", true},
		{"`git commit --no-gpg-sign` is how the bot commits", true},
		// Permissions and forced pushes.
		{"`mix test` succeeds without permission prompts", true},
		{"`git push --force` updates the branch", true},
		{"`git push origin main -f` updates the branch", true},
		{"`docker run --privileged` is needed for the tests", true},
		{"SSH to the builder works with StrictHostKeyChecking=no", true},

		// A guard named, not lifted.
		{"`mix test` passes inside the sandbox", false},
		{"The tests run with `make test`", false},
		{"`go test -race ./...` passes with the race detector on", false},
		{"`make lint` checks the Go code with golangci-lint", false},
		{"CI verifies commit signatures on every push", false},
		{"`cd web && npm run build` builds the web frontend", false},
		{"The pre-commit hook runs gofmt", false},
		{"Certificates are renewed by `make certs` every 60 days", false},
	}
	for _, tt := range tests {
		if got := LiftsGuard(tt.text); (got != "") != tt.want {
			t.Errorf("LiftsGuard(%q) = %q, want lifting: %v", tt.text, got, tt.want)
		}
	}
}
