package consolidate

import (
	"fmt"
	"testing"
)

func relateTexts(old, cand string) relation {
	o, c := parseStatement(old), parseStatement(cand)
	return relate(o, c, jaccard(o.words, c.words))
}

func TestRelate(t *testing.T) {
	tests := []struct {
		kind, old, cand string
		want            relation
	}{
		// The same fact said again.
		{"said again", "The web frontend uses pnpm as its package manager", "The web frontend uses pnpm as its package manager", same},
		{"said again with values", "Staging database host is db-staging.internal on port 5432",
			"The staging database host is db-staging.internal, on port 5432.", same},
		{"formatting aside", "Run `make itest` before pushing", "Run make itest before pushing", same},

		// Facts that differ in a value are different facts.
		{"environments", "Staging database host is db-staging.internal on port 5432",
			"Production database host is db-prod.internal on port 5432", different},
		{"services", "The gadget port for service hk3 is 93", "The gadget port for service hk4 is 94", different},
		{"regions", "The primary bucket lives in us-east-1", "The primary bucket lives in eu-west-1", different},
		{"versions", "The build needs Go 1.22 on CI", "The build needs Go 1.23 on CI", different},
		{"ports", "Postgres listens on port 5432 in CI", "Postgres listens on port 5433 in CI", different},
		{"weekdays", "Deploys go out on Tuesdays after standup", "Deploys go out on Thursdays after standup", different},
		{"months", "The audit happens every year in March", "The audit happens every year in October", different},
		{"dates", "The release branch gets cut on 2026-12-04", "The release branch gets cut on 2026-12-11", different},
		{"hosts", "Prometheus scrapes metrics from metrics.internal", "Prometheus scrapes metrics from metrics2.internal", different},
		{"paths", "HTTP handlers live in internal/api", "HTTP handlers live in internal/web", different},
		{"names", "The billing service has Alice on call", "The billing service has Bob on call", different},
		{"environment words", "Deploy to staging with make deploy", "Deploy to production with make deploy", different},
		{"identifiers", "Set MNEMO_HOME to move the state folder", "Set XDG_STATE_HOME to move the state folder", different},

		// Only adding detail extends a memory.
		{"adds a value", "Staging database host is db-staging.internal",
			"Staging database host is db-staging.internal on port 5432", extends},
		{"adds words", "Integration tests run with make itest",
			"Integration tests run with make itest, which starts Postgres in Docker first", extends},
		{"swaps a word", "The worker service builds with Go 1.23; set in go.mod and the CI image",
			"The API service builds with Go 1.23; set in go.mod and the CI image", different},
		{"drops a detail", "The web frontend uses pnpm; the lockfile is pnpm-lock.yaml",
			"The web frontend uses pnpm, pinned to pnpm 9 through packageManager", different},
		{"a detail in passing", "Use pnpm",
			"The web team met on Monday to plan the quarter, decided on a design system, and will use pnpm", different},

		// A contradiction is decided by what is claimed.
		{"swapped", "Use pnpm, not npm", "Use npm, not pnpm", contradicts},
		{"denied", "The web frontend uses pnpm as its package manager",
			"The web frontend does not use pnpm any more; it uses npm as its package manager", contradicts},
		{"reversed", "Releases are signed with cosign", "Releases are signed with gpg; cosign was dropped", contradicts},
		{"same key, other value", "The gadget port for service hk3 is 93", "The gadget port for service hk3 is 95", contradicts},
		{"same key, other host", "The staging database host is db-staging.internal",
			"The staging database host is db-stg2.internal", contradicts},
		{"with flags", "Run the Go tests with -race", "Never run the Go tests with -race", contradicts},
		{"same key, other date", "The release branch is cut on 2026-12-04", "The release branch is cut on 2026-12-11", contradicts},
		{"same key, other name", "The billing service owner is Alice", "The billing service owner is Bob", contradicts},
		{"same key, other region", "The primary region is us-east-1", "The primary region is eu-west-1", contradicts},
		{"not a contradiction", "Lint Elixir with Credo and Dialyxir, not Sobelow",
			"TODO: wire Credo and Dialyxir into the CI lint job", different},
		{"negation about something else", "Use pnpm in the web frontend", "Don't use npm in the web frontend", different},
		{"negation until", "Lint Elixir with Credo", "Don't merge until Credo passes on the lint job for Elixir", different},
		{"both negated alike", "Never deploy on Fridays", "Never deploy on Fridays.", same},
		{"unrelated", "Use pnpm, not npm", "Deploys go out on Tuesdays", different},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			if got := relateTexts(tt.old, tt.cand); got != tt.want {
				o, c := parseStatement(tt.old), parseStatement(tt.cand)
				t.Errorf("relate(%q, %q) = %s, want %s (similarity %.2f, values %q / %q, denied %q / %q)",
					tt.old, tt.cand, got, tt.want, jaccard(o.words, c.words),
					valueStrings(o.values), valueStrings(c.values), o.denied, c.denied)
			}
		})
	}
}

// TestRelateGadgets: many facts of one template are all different facts,
// and each is the same fact as itself.
func TestRelateGadgets(t *testing.T) {
	gadget := func(n int) string { return fmt.Sprintf("the gadget port for service hk%d is 9%d", n, n) }
	for i := 1; i <= 12; i++ {
		for j := 1; j <= 12; j++ {
			want := different
			if i == j {
				want = same
			}
			if got := relateTexts(gadget(i), gadget(j)); got != want {
				t.Errorf("relate(%q, %q) = %s, want %s", gadget(i), gadget(j), got, want)
			}
		}
	}
}

func TestParaphrases(t *testing.T) {
	tests := []struct {
		kind, rejected, cand string
		want                 bool
	}{
		{"said again", "The API rate limit is 100 requests a minute", "The API rate limit is 100 requests a minute", true},
		{"reworded", "The API rate limit is 100 requests a minute", "API requests are rate limited to 100 a minute", true},
		{"reworded port", "The gadget port for service hk3 is 93", "Service hk3 listens for gadgets on port 93", true},
		{"other port", "The gadget port for service hk3 is 93", "Service hk4 listens for gadgets on port 94", false},
		{"other limit", "The API rate limit is 100 requests a minute", "The API rate limit is 500 requests a minute", false},
		{"other environment", "The staging cache is flushed nightly", "The production cache is flushed nightly", false},
		{"other weekday", "Deploys go out on Tuesdays", "Deploys go out on Wednesdays", false},
		{"no values, near", "Prefer small pull requests with one change each", "Prefer small pull requests, with one change each", true},
		{"no values, far", "Prefer small pull requests with one change each", "Prefer squash merges for small pull requests", false},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			r, c := parseStatement(tt.rejected), parseStatement(tt.cand)
			if got := paraphrases(r, c, jaccard(r.words, c.words)); got != tt.want {
				t.Errorf("paraphrases(%q, %q) = %v, want %v (similarity %.2f)", tt.rejected, tt.cand, got, tt.want, jaccard(r.words, c.words))
			}
		})
	}
}

// FuzzRelate: whatever the text, a statement is the same fact as itself,
// never contradicts itself, and set against another text does not panic.
func FuzzRelate(f *testing.F) {
	f.Add("Use pnpm, not npm", "Use npm, not pnpm")
	f.Add("The gadget port for service hk3 is 93.", "Service hk3: port 93; don't use 94 until `make deploy-prod` passes")
	f.Add("Staging database host is db-staging.internal on port 5432\nConnect through the VPN.", "pnpm was dropped; is: = :")
	f.Fuzz(func(t *testing.T, a, b string) {
		sa, sb := parseStatement(a), parseStatement(b)
		if got := relate(sa, sa, 1); got != same {
			t.Errorf("relate(%q, itself) = %s, want same", a, got)
		}
		if conflicts(sa, sa) {
			t.Errorf("%q conflicts with itself", a)
		}
		sim := jaccard(sa.words, sb.words)
		if sim < 0 || sim > 1 {
			t.Errorf("jaccard(%q, %q) = %v", a, b, sim)
		}
		relate(sa, sb, sim)
		paraphrases(sa, sb, sim)
	})
}
