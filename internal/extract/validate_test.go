package extract

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/approval"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

const validItem = `{"name":"web-uses-pnpm","description":"Use pnpm, not npm, in web/","fact":"web/ has a pnpm lockfile.","type":"project","category":"convention","files":["web/package.json"],"confidence":0.9,"why":"the user said so","from_tool_output":false}`

func TestParseReply(t *testing.T) {
	cwd := t.TempDir()
	os.MkdirAll(filepath.Join(cwd, "web"), 0o755)
	os.WriteFile(filepath.Join(cwd, "web", "package.json"), []byte("{}"), 0o644)
	ps := newPaths(cwd, mentions(""))
	want := Candidate{Name: "web-uses-pnpm", Description: "Use pnpm, not npm, in web/", Fact: "web/ has a pnpm lockfile.",
		Type: memory.TypeProject, Category: CategoryConvention, Files: []string{"web/package.json"}, Confidence: 0.9, Why: "the user said so"}

	tests := []struct {
		name     string
		raw      string
		want     []Candidate
		problems []string // each a substring of the problem at that position
	}{
		{"empty array", "[]", nil, nil},
		{"empty array with space", "\n  [ ]\n", nil, nil},
		{"one item", "[" + validItem + "]", []Candidate{want}, nil},
		{"fenced", "```json\n[" + validItem + "]\n```", []Candidate{want}, nil},
		{"bare fence", "```\n[]\n```", nil, nil},
		{"enum case and spaces", strings.NewReplacer(`"project"`, `" Project "`, `"convention"`, `"CONVENTION"`).Replace("[" + validItem + "]"), []Candidate{want}, nil},
		{"absolute path inside cwd", strings.Replace("["+validItem+"]", `"web/package.json"`, `"`+cwd+`/web/package.json","./web/package.json"`, 1), []Candidate{want}, nil},
		{"paths dropped", strings.Replace("["+validItem+"]", `["web/package.json"]`, `["web/package.json","web","missing.go","../etc/passwd","/etc/passwd"]`, 1), []Candidate{want}, nil},
		{"bad name dropped", strings.Replace("["+validItem+"]", `"web-uses-pnpm"`, `"Web Uses PNPM!"`, 1), []Candidate{func() Candidate { c := want; c.Name = ""; return c }()}, nil},
		{"null optional fields", `[{"name":null,"description":"d","fact":"f","type":"user","category":"preference","files":null,"confidence":0,"why":null}]`,
			[]Candidate{{Description: "d", Fact: "f", Type: memory.TypeUser, Category: CategoryPreference}}, nil},
		{"from tool output", strings.Replace("["+validItem+"]", `"from_tool_output":false`, `"from_tool_output":true`, 1),
			[]Candidate{func() Candidate { c := want; c.FromToolOutput = true; return c }()}, nil},

		{"empty reply", "  ", nil, []string{"the reply is empty"}},
		{"prose", "Here are the memories: []", nil, []string{"not a JSON array"}},
		{"object", `{"candidates":[]}`, nil, []string{"found a JSON object where an array belongs"}},
		{"trailing text", "[] and that is all", nil, []string{"text after the JSON array"}},
		{"two arrays", "[] []", nil, []string{"text after the JSON array"}},
		{"truncated", "[" + validItem[:60], nil, []string{"not a JSON array"}},
		{"not an object", `[1]`, nil, []string{"[0]: is not a JSON object"}},
		{"every problem of an item", `[{"description":"` + strings.Repeat("x", 151) + `","fact":"","type":"proj","category":"idea","confidence":1.5,"files":"a.go","extra":1}]`, nil, []string{
			"[0].extra: unknown key", "[0].description: is 151 characters, at most 150", "[0].fact: is empty",
			`[0].type: "proj" is not one of`, `[0].category: "idea" is not one of`, "[0].confidence: 1.5 is not from 0 to 1", "[0].files: must be an array of strings"}},
		{"missing fields", `[{}]`, nil, []string{"[0].description: missing", "[0].fact: missing", "[0].type: missing", "[0].category: missing", "[0].confidence: missing"}},
		{"wrong types", `[{"name":1,"description":"d","fact":"f","type":"user","category":"preference","confidence":"high","from_tool_output":"no"}]`, nil, []string{
			"[0].name: must be a string", "[0].confidence: must be a number", "[0].from_tool_output: must be true or false"}},
		{"multi-line description", `[{"description":"a\nb","fact":"f","type":"user","category":"preference","confidence":0.5}]`, nil, []string{"[0].description: must be one line"}},
		{"duplicate names", "[" + validItem + "," + validItem + "]", []Candidate{want}, []string{"[1].name: \"web-uses-pnpm\" is also the name of item 0"}},
		{"one bad item among good ones", "[" + validItem + `,{"description":"d","fact":"f","type":"proj","category":"decision","confidence":0.5}]`, []Candidate{want}, []string{`[1].type: "proj" is not one of`}},
		{"too many", "[" + strings.Repeat(validItem+",", maxCandidates) + validItem + "]", nil, []string{"items, at most 20"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := parseReply(tt.raw, ps, nil)
			got, problems := r.cands, r.problems
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseReply candidates = %+v, want %+v", got, tt.want)
			}
			if len(problems) != len(tt.problems) {
				t.Fatalf("parseReply problems = %q, want %d like %q", problems, len(tt.problems), tt.problems)
			}
			for i, p := range problems {
				if !strings.Contains(p, tt.problems[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, p, tt.problems[i])
				}
			}
		})
	}
}

func TestPathsWithoutCWD(t *testing.T) {
	// The session's folder is not on this machine: a path is kept only
	// when the digest mentions it and it looks like a file.
	ps := newPaths("/nonexistent/shop", mentions("tool: Edit web/src/App.tsx -> ok\nuser: we use pnpm in web/"))
	tests := []struct{ in, want string }{
		{"web/src/App.tsx", "web/src/App.tsx"},
		{"/nonexistent/shop/web/src/App.tsx", "web/src/App.tsx"},
		{"web/", ""},
		{"web", ""},
		{"web/src/Other.tsx", ""},
		{"/elsewhere/web/src/App.tsx", ""},
		{"../shop/web/src/App.tsx", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ps.clean(tt.in); got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzParseReply(f *testing.F) {
	f.Add("[" + validItem + "]")
	f.Add("```json\n[" + validItem + "]\n```")
	f.Add("[]")
	f.Add(`[{"description":"a","fact":"b","type":"user","category":"todo","confidence":0.1,"files":["../x","/y","z.go"]}]`)
	f.Add(`{"a":1}`)
	f.Add(`[{"name":"no-deploys-on-fridays","description":"金曜日にはデプロイしない","fact":"f","type":"user","category":"decision","confidence":0.95,"evidence":"inferred","relation":"same","memory":"staging-db-host"}]`)
	f.Add(`[{"description":"d","fact":"f","type":"project","category":"todo","confidence":0.9,"evidence":"tool","relation":"contradicts","memory":"made-up"}]`)
	ps := newPaths("/nonexistent", mentions("z.go a/b.go"))
	known := map[string]string{"staging-db-host": "project", "deploy-days": "inbox"}
	f.Fuzz(func(t *testing.T, raw string) {
		r := parseReply(raw, ps, known)
		got, problems := r.cands, r.problems
		if len(problems) > 0 {
			if msg := repairMessage(problems); !strings.Contains(msg, problems[0]) {
				t.Fatalf("repair message lost a problem")
			}
		}
		for _, c := range got {
			if c.Description == "" || strings.ContainsAny(c.Description, "\r\n") || len([]rune(c.Description)) > memory.MaxDescriptionLen {
				t.Errorf("invalid description %q accepted", c.Description)
			}
			if c.Fact == "" || !c.Type.Valid() || c.Confidence < 0 || c.Confidence > 1 {
				t.Errorf("invalid candidate accepted: %+v", c)
			}
			if c.Name != "" && !memory.ValidName(c.Name) {
				t.Errorf("invalid name %q accepted", c.Name)
			}
			if c.Relation != "" && known[c.Memory] == "" || c.Relation != "" && c.Where != known[c.Memory] {
				t.Errorf("relation %q to %q (%s) accepted, not a memory sent", c.Relation, c.Memory, c.Where)
			}
			if !slices.Contains(typeCategories[c.Type], c.Category) {
				t.Errorf("type %s with category %s accepted", c.Type, c.Category)
			}
			if (c.Evidence == approval.Inferred || c.Evidence == approval.Tool) && c.Confidence > approval.InferredCap {
				t.Errorf("%s fact at %v accepted", c.Evidence, c.Confidence)
			}
			for _, p := range c.Files {
				if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "..") {
					t.Errorf("path %q escapes the cwd", p)
				}
			}
		}
	})
}

// TestReplyChecks: what validation fixes without a repair request (a type
// its category contradicts, a relation to a memory the request did not
// name, an inferred fact's confidence past the cap), each with a note, and
// what it asks a repair for (a description no file name can be made of).
func TestReplyChecks(t *testing.T) {
	known := map[string]string{"staging-db-host": "project", "deploy-days": "inbox"}
	item := func(fields string) string {
		return `[{"description":"Staging is read-only","fact":"Migrations go through the release pipeline.","files":[],"why":"w",` + fields + `}]`
	}
	tests := []struct {
		name    string
		raw     string
		check   func(c Candidate) bool
		note    string // a substring of the note; "" for none
		problem string // a substring of the problem; "" for none
	}{
		{"user fact with a project category is a project fact", item(`"type":"user","category":"decision","confidence":0.9`),
			func(c Candidate) bool { return c.Type == memory.TypeProject }, "type user does not fit category decision: typed project", ""},
		{"project preference is feedback", item(`"type":"project","category":"preference","confidence":0.9`),
			func(c Candidate) bool { return c.Type == memory.TypeFeedback }, "typed feedback", ""},
		{"reference typed feedback is a reference", item(`"type":"feedback","category":"reference","confidence":0.6`),
			func(c Candidate) bool { return c.Type == memory.TypeReference }, "typed reference", ""},
		{"user preference fits", item(`"type":"user","category":"preference","confidence":0.9`),
			func(c Candidate) bool { return c.Type == memory.TypeUser }, "", ""},
		{"a relation to a memory sent", item(`"type":"project","category":"convention","confidence":0.9,"relation":"same","memory":"staging-db-host"`),
			func(c Candidate) bool {
				return c.Relation == "same" && c.Memory == "staging-db-host" && c.Where == "project"
			}, "", ""},
		{"a relation to a draft sent", item(`"type":"project","category":"convention","confidence":0.9,"relation":"Update","memory":"deploy-days"`),
			func(c Candidate) bool { return c.Relation == "update" && c.Where == "inbox" }, "", ""},
		{"a relation to a memory not sent is new", item(`"type":"project","category":"convention","confidence":0.9,"relation":"contradicts","memory":"made-up"`),
			func(c Candidate) bool { return c.Relation == "" && c.Memory == "" }, `relation contradicts to "made-up", a memory the request did not name: taken as new`, ""},
		{"new names nothing", item(`"type":"project","category":"convention","confidence":0.9,"relation":"new","memory":""`),
			func(c Candidate) bool { return c.Relation == "" }, "", ""},
		{"an unknown relation", item(`"type":"project","category":"convention","confidence":0.9,"relation":"similar"`),
			nil, "", `.relation: "similar" is not one of new, same, update, contradicts`},
		{"inferred is capped", item(`"type":"project","category":"convention","confidence":0.95,"evidence":"inferred"`),
			func(c Candidate) bool { return c.Confidence == 0.8 && c.Evidence == "inferred" }, "confidence 0.95 capped at 0.8 (evidence: inferred)", ""},
		{"tool evidence is from tool output", item(`"type":"project","category":"convention","confidence":0.7,"evidence":"tool"`),
			func(c Candidate) bool { return c.FromToolOutput }, "", ""},
		{"stated keeps its confidence", item(`"type":"project","category":"convention","confidence":0.95,"evidence":"Stated"`),
			func(c Candidate) bool { return c.Confidence == 0.95 && c.Evidence == "stated" }, "", ""},
		{"an unknown evidence", item(`"type":"project","category":"convention","confidence":0.7,"evidence":"vibes"`),
			nil, "", `.evidence: "vibes" is not one of`},
		{"a name with spaces and capitals", strings.Replace(item(`"type":"project","category":"convention","confidence":0.7`), `"why"`, `"name":"Staging_Read Only","why"`, 1),
			func(c Candidate) bool { return c.Name == "staging-read-only" }, "", ""},
		{"a Japanese description with an English slug", `[{"name":"no-deploys-on-fridays","description":"金曜日にはデプロイしない","fact":"金曜日のデプロイは禁止。","type":"project","category":"convention","confidence":0.9}]`,
			func(c Candidate) bool {
				return c.Name == "no-deploys-on-fridays" && c.Description == "金曜日にはデプロイしない"
			}, "", ""},
		{"a Japanese description without a slug", `[{"description":"金曜日にはデプロイしない","fact":"金曜日のデプロイは禁止。","type":"project","category":"convention","confidence":0.9}]`,
			nil, "", "[0].name: missing: the description has no Latin letters"},
		{"a Japanese description with a Japanese name", `[{"name":"金曜日","description":"金曜日にはデプロイしない","fact":"金曜日のデプロイは禁止。","type":"project","category":"convention","confidence":0.9}]`,
			nil, "", "[0].name: missing: the description has no Latin letters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := parseReply(tt.raw, newPaths("", mentions("")), known)
			if tt.problem != "" {
				if len(r.cands) != 0 || len(r.problems) != 1 || !strings.Contains(r.problems[0], tt.problem) {
					t.Errorf("parseReply = %+v, want the item dropped for %q", r, tt.problem)
				}
				return
			}
			if len(r.problems) != 0 || len(r.cands) != 1 {
				t.Fatalf("parseReply = %+v, want one candidate", r)
			}
			if !tt.check(r.cands[0]) {
				t.Errorf("candidate = %+v", r.cands[0])
			}
			if got := strings.Join(r.notes, "\n"); tt.note == "" && got != "" || !strings.Contains(got, tt.note) {
				t.Errorf("notes = %q, want %q", got, tt.note)
			}
		})
	}
}
