package consolidate

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func valueStrings(vs values) []string {
	var out []string
	for _, v := range vs.list {
		out = append(out, v.String())
	}
	return out
}

func TestExtractValues(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"host and port", "Staging database host is db-staging.internal on port 5432",
			[]string{"environment:staging", "host:db-staging.internal", "port:5432"}},
		{"host colon port", "Redis listens on cache.prod.internal:6379.",
			[]string{"host:cache.prod.internal", "port:6379", "environment:production"}},
		{"localhost", "The dev server runs on localhost:8080",
			[]string{"environment:development", "host:localhost", "port:8080"}},
		{"address", "The VPN gateway is 10.0.0.1", []string{"name:vpn", "host:10.0.0.1"}},
		{"url", "Docs live at https://docs.example.com/api/ now.", []string{"url:docs.example.com/api"}},
		{"regions", "The API runs in us-east-1, the replica in europe-west4",
			[]string{"name:api", "region:us-east-1", "region:europe-west4"}},
		{"versions", "Pin Go 1.22 and node v20.11.1; protoc is 3.21.12",
			[]string{"name:go", "version:1.22", "version:20.11.1", "version:3.21.12"}},
		{"numbers and units", "Timeouts are 100 ms for reads and 30s for writes, 1,000 retries, 10% jitter",
			[]string{"number:100ms", "number:30s", "number:1000", "number:10%"}},
		{"weekdays", "Deploys go out on Tuesdays, never on Fri.", []string{"weekday:tuesday", "weekday:friday"}},
		{"weekday abbreviation needs a capital", "He sat down", nil},
		{"months and dates", "The freeze runs from 2026-12-04 to Jan 10; budget in March",
			[]string{"date:2026-12-04", "month:january", "number:10", "month:march"}},
		{"may the verb", "May we use tabs? It may rain in May.", []string{"month:may"}},
		{"time", "Standup is at 09:30, retro at 4pm", []string{"time:09:30", "time:4pm"}},
		{"environments", "Prod and stg share one QA account; run the test suite",
			[]string{"environment:production", "environment:staging", "environment:qa"}},
		{"weak environment before its noun", "Point it at the test cluster", []string{"environment:test"}},
		{"environment inside a name", "Run make deploy-staging", []string{"environment:staging"}},
		{"paths", "Auth lives in internal/auth/ and ./web, config in ~/.mnemo and .env; see go.mod",
			[]string{"path:internal/auth", "path:web", "path:~/.mnemo", "path:.env", "path:go.mod"}},
		{"not paths", "Use tabs and/or spaces, i.e. whatever", nil},
		{"identifiers", "Set MNEMO_HOME and call os.Getenv() with packageManager; pass --race to hk3",
			[]string{"identifier:mnemo_home", "identifier:os.getenv", "identifier:packagemanager", "identifier:--race", "identifier:hk3"}},
		{"backticks", "Run `make itest` before `git push`", []string{"identifier:make", "identifier:itest", "identifier:git", "identifier:push"}},
		{"backticks around a unit", "Wait `100 ms` then run tests.", []string{"number:100ms"}},
		{"names inside a sentence", "The billing service is owned by Alice and runs on Postgres",
			[]string{"name:alice", "name:postgres"}},
		{"a sentence's first word is not a name", "Always use pnpm. Never use npm.", nil},
		{"acronyms", "CI runs on AWS", []string{"name:ci", "name:aws"}},
		{"gadget port", "the gadget port for service hk7 is 97", []string{"identifier:hk7", "number:97"}},
		{"no values", "Prefer small pull requests with one change each", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := valueStrings(extractValues(tt.text)); !slices.Equal(got, tt.want) {
				t.Errorf("extractValues(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestAgree: two statements name the same values only when no value of
// one is missing from the other, however it is written there.
func TestAgree(t *testing.T) {
	tests := []struct {
		kind, a, b string
		want       bool
	}{
		{"environment", "Staging database host is db.internal", "Production database host is db.internal", false},
		{"environment alias", "The prod database is read-only", "The production database is read-only", true},
		{"host", "The database host is db-staging.internal", "The database host is db-stg2.internal", false},
		{"port", "Postgres listens on port 5432", "Postgres listens on port 5433", false},
		{"region", "The bucket lives in us-east-1", "The bucket lives in eu-west-1", false},
		{"region same", "The bucket lives in us-east-1", "us-east-1 is where the bucket lives", true},
		{"version", "The service needs Go 1.22", "The service needs Go 1.23", false},
		{"version prefix", "Pin protoc v3.21.12", "Pin protoc 3.21.12", true},
		{"weekday", "Deploys go out on Tuesdays", "Deploys go out on Thursdays", false},
		{"weekday written two ways", "Deploys go out on Tuesdays", "We deploy every Tue.", true},
		{"month", "The freeze starts in December", "The freeze starts in January", false},
		{"date", "The release is on 2026-12-04", "The release is on 2026-12-11", false},
		{"path", "Handlers live in internal/api", "Handlers live in internal/web", false},
		{"path written two ways", "Install packages in web/", "Install packages in ./web", true},
		{"identifier", "Service hk3 serves gadgets", "Service hk4 serves gadgets", false},
		{"backticks are formatting", "Run `pnpm install` first", "Run pnpm install first", true},
		{"name", "Billing is owned by Alice", "Billing is owned by Bob", false},
		{"unit", "The read timeout is 100 ms", "The read timeout is 100ms", true},
		{"unit differs", "The read timeout is 100 ms", "The read timeout is 100 s", false},
		{"no values", "Prefer tabs", "Prefer spaces", true},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			if got := agree(extractValues(tt.a), extractValues(tt.b)); got != tt.want {
				t.Errorf("agree(%q, %q) = %v, want %v (values %q and %q)", tt.a, tt.b, got, tt.want,
					valueStrings(extractValues(tt.a)), valueStrings(extractValues(tt.b)))
			}
		})
	}
}

func FuzzExtractValues(f *testing.F) {
	for _, s := range []string{
		"Staging database host is db-staging.internal on port 5432",
		"Pin Go 1.22 and node v20.11.1; deploys on Tuesdays at 10:00 from `make deploy-prod` in us-east-1",
		"See https://docs.example.com/api and ~/.mnemo/state, MNEMO_HOME, os.Getenv(), 1,000 retries, 10%",
		"```go\nx := `raw`\n```\n- [link](a/b.md) — Alice's notes, May 2026-12",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vs := extractValues(s)
		seen := map[string]bool{}
		for _, v := range vs.list {
			if v.key == "" || !utf8.ValidString(v.key) || v.kind.String() == "unknown" {
				t.Errorf("extractValues(%q) gave a bad value %v", s, v)
			}
			if seen[v.key] {
				t.Errorf("extractValues(%q) gave %q twice", s, v.key)
			}
			seen[v.key] = true
		}
		if !agree(vs, extractValues(s)) {
			t.Errorf("extractValues(%q) does not agree with itself", s)
		}
		if twice := extractValues(s + "\n" + s); !slices.Equal(valueStrings(twice), valueStrings(vs)) {
			t.Errorf("extractValues(%q) = %q, but twice over %q", s, valueStrings(vs), valueStrings(twice))
		}
	})
}
