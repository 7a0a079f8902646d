package memory

import (
	"fmt"
	"regexp"
	"testing"
)

func TestSlug(t *testing.T) {
	// The memory-… names are "memory-" and the start of `printf %s "$in" | sha256sum`.
	tests := []struct {
		name, in, want string
	}{
		{"design example", "Authentication lives in internal/auth since 2026-09; UserService must not import billing/", "authentication-lives-internal-auth-since-2026"},
		{"stop words", "Never state a figure without verifying it from a source", "never-state-figure-without-verifying"},
		// A name cut short ends on a word that ends a phrase: not on a
		// preposition, conjunction, determiner or auxiliary that needs the
		// words cut off after it.
		{"cut at a colon", "Ledger IDs are ULIDs: sort them as strings, never as numbers", "ledger-ids-ulids"},
		{"cut at a comma", "Keep error messages lowercase, no final period", "keep-error-messages-lowercase"},
		{"cut at a dash", "Staging resets nightly - keep no data there overnight", "staging-resets-nightly"},
		{"cut after a preposition", "Ledger IDs are ULIDs so sort them as strings", "ledger-ids-ulids-so-sort-them"},
		{"punctuation too early to cut at", "Deploy: run make deploy from the root after CI passes", "deploy-run-make-deploy-from-root"},
		{"a full stop inside a value ends nothing", "Pin Go 1.26.1 in ci.yaml because 1.25 breaks the vet step", "pin-go-1-26-1-ci"},
		{"cut after a conjunction and a preposition", "Run migrations before deploys but after backups finish", "run-migrations-before-deploys"},
		{"cut after a determiner", "Timeouts are 30s unless a job sets its own", "timeouts-30s-unless-job-sets"},
		{"cut after a modal and a conjunction", "Workers that crash should restart but must not retry forever", "workers-crash-should-restart"},
		{"cut by length after a preposition", "internationalization localization without globalization", "internationalization-localization"},
		{"not cut: the description ends there", "Pick the port the proxy listens at", "pick-port-proxy-listens-at"},
		{"cut, nothing but function words", "by via from into onto upon within", "by"},
		{"only stop words", "To be or not to be", "not"},
		{"nothing but stop words", "it is that", "it-is-that"},
		{"accents", "Café über Straße", "cafe-uber-strasse"},
		{"a redacted secret names nothing", "The staging admin password is [REDACTED:password]", "staging-admin-password"},
		{"nothing but a redacted secret", "[REDACTED:github-token]", "memory-5a911e44"},
		{"ligatures and strokes", "Œuvre Æsir Łódź Þór", "oeuvre-aesir-lodz-thor"},
		{"combining accent", "Cafe\u0301 au lait", "cafe-au-lait"},
		{"dotted capital I", "İstanbul office", "istanbul-office"},
		{"apostrophes", "Don't use the user’s token", "dont-use-users-token"},
		{"punctuation runs", "  --Hello,   World!!--  ", "hello-world"},
		{"digits", "Use Go 1.26 and SQLite 3", "use-go-1-26-sqlite-3"},
		{"six words", "one two three four five six seven eight", "one-two-three-four-five-six"},
		{"cut at a word boundary", "internationalization localization globalization accessibility", "internationalization-localization-globalization"},
		{"long first word", "Pneumonoultramicroscopicsilicovolcanoconiosisxxxxxxxxxxxxxxxx disease", "pneumonoultramicroscopicsilicovolcanoconiosisxxx"},
		{"mixed scripts", "日本語 docs", "docs"},
		{"CJK only", "認証は内部パッケージへ", "memory-b993fa2b"},
		{"emoji only", "🚀🔥", "memory-275479e3"},
		{"empty", "", "memory-e3b0c442"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Slug(tt.in); got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzSlug(f *testing.F) {
	nameRE := regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
	f.Add("Authentication lives in internal/auth since 2026-09; UserService must not import billing/")
	f.Add("Café über Straße — İstanbul’s Œuvre")
	f.Add("認証は内部パッケージへ 🚀")
	f.Add("the a an of")
	f.Add("\xff\xfe-")
	f.Fuzz(func(t *testing.T, description string) {
		if got := Slug(description); !nameRE.MatchString(got) {
			t.Errorf("Slug(%q) = %q, not a valid name", description, got)
		}
	})
}

func ExampleSlug() {
	fmt.Println(Slug("Authentication lives in internal/auth since 2026-09; UserService must not import billing/"))
	fmt.Println(Slug("Prefer table-driven tests über alles"))
	fmt.Println(Slug("認証"))
	// Output:
	// authentication-lives-internal-auth-since-2026
	// prefer-table-driven-tests-uber-alles
	// memory-f6bad65c
}
