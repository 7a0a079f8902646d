package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// verifyShown bounds the suspect memories one verify answer lists.
const verifyShown = 50

type verifyInput struct {
	Name   string `json:"name,omitempty" jsonschema:"the memory to check; without it, every memory is checked and the suspect ones listed"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the next_cursor of a previous answer, for more suspect memories"`
}

type verdict struct {
	Name    string            `json:"name"`
	Vault   string            `json:"vault"`
	State   string            `json:"state"` // fresh, suspect, unverifiable
	Reasons []string          `json:"reasons,omitempty"`
	Renames map[string]string `json:"renames,omitempty"`
}

type verifyOutput struct {
	Checked      int       `json:"checked"`
	Fresh        int       `json:"fresh"`
	Suspect      int       `json:"suspect"`
	Unverifiable int       `json:"unverifiable"`
	Results      []verdict `json:"results"`
	NextCursor   string    `json:"next_cursor,omitempty"`
}

const verifyDescription = `Check whether memories still match the code: the files a memory is anchored to are re-hashed, renames are followed through git, and the paths and identifiers its body names are looked up. A memory is fresh, suspect (with the reasons: "internal/auth/service.go changed since 2026-11-02, 3 commits"), or unverifiable (it names nothing to check). With a name, checks that memory; without, checks all and lists the suspect ones. It changes nothing: fix a suspect memory with update (which re-anchors it) or forget it.`

func (s *Server) addVerify() {
	addTool(s.mcp, &mcp.Tool{
		Name:         "verify",
		Description:  verifyDescription,
		Annotations:  readOnly("Verify memories against the code"),
		InputSchema:  schemaFor[verifyInput](nil),
		OutputSchema: schemaFor[verifyOutput](nil),
	}, s.verify)
}

func (s *Server) verify(ctx context.Context, _ *mcp.CallToolRequest, in verifyInput) (*mcp.CallToolResult, verifyOutput, error) {
	out := verifyOutput{Results: []verdict{}}
	start, err := offset(in.Cursor)
	if err != nil {
		return nil, out, err
	}
	var todo []found
	if in.Name != "" {
		f, err := s.find(in.Name)
		if err != nil {
			return nil, out, err
		}
		todo = append(todo, f)
	} else {
		for _, where := range []string{"project", "user"} {
			for _, e := range s.entries(s.vaultOf(where)) {
				todo = append(todo, found{where: where, v: s.vaultOf(where), m: e.Memory})
			}
		}
	}
	all, err := s.check(ctx, todo)
	if err != nil {
		return nil, out, err
	}
	var suspect []verdict
	for _, v := range all {
		out.count(staleness.State(v.State))
		if in.Name != "" || v.State == string(staleness.Suspect) {
			suspect = append(suspect, v)
		}
	}
	end := min(start+verifyShown, len(suspect))
	out.Results = append(out.Results, suspect[min(start, end):end]...)
	if end < len(suspect) {
		out.NextCursor = cursorAt(end)
	}
	return text("%s", verifyText(out)), out, nil
}

func (o *verifyOutput) count(st staleness.State) {
	o.Checked++
	switch st {
	case staleness.Fresh, staleness.Intact: // changed, with every name in place: as good as fresh
		o.Fresh++
	case staleness.Suspect:
		o.Suspect++
	default:
		o.Unverifiable++
	}
}

// check verifies memories with the index's hash cache and stores the
// verdicts that changed, as 'mnemo verify' does, so that recall, the hooks
// and the CLI rank and list suspects alike.
func (s *Server) check(ctx context.Context, todo []found) ([]verdict, error) {
	db, done, err := s.index(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	cache, err := db.HashCache(ctx)
	if err != nil {
		return nil, err
	}
	old, err := db.Verdicts(ctx)
	if err != nil {
		return nil, err
	}
	v := &staleness.Verifier{Root: s.cfg.Root, InGit: s.cfg.InGit, Head: s.cfg.Head(ctx), Cache: cache, GrepBudget: 2 * time.Second,
		Vault: staleness.VaultPath(s.cfg.Root, s.cfg.Project.Dir)}
	var out []verdict
	var changed []index.Verdict
	for _, f := range todo {
		r := v.Verify(ctx, f.m)
		out = append(out, verdict{Name: f.m.Name, Vault: f.where, State: string(r.State), Reasons: r.Reasons, Renames: r.Renames})
		key := index.Key{Source: f.where, Name: f.m.Name}
		if o, ok := old[key]; !ok || o.State != string(r.State) || !slices.Equal(o.Reasons, r.Reasons) {
			changed = append(changed, index.Verdict{Key: key, State: string(r.State), Reasons: r.Reasons})
		}
	}
	if err := cache.Save(ctx); err != nil {
		return nil, err
	}
	if err := db.SetVerdicts(ctx, s.cfg.Now(), changed...); err != nil {
		return nil, err
	}
	s.forgetVerdicts()
	return out, nil
}

// verifyText renders an answer for clients that show text.
func verifyText(o verifyOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d checked: %d fresh, %d suspect, %d unverifiable.\n", o.Checked, o.Fresh, o.Suspect, o.Unverifiable)
	for _, r := range o.Results {
		fmt.Fprintf(&b, "- %s (%s): %s", r.Name, r.Vault, r.State)
		if len(r.Reasons) > 0 {
			b.WriteString(": " + strings.Join(r.Reasons, "; "))
		}
		b.WriteString("\n")
	}
	if o.NextCursor != "" {
		fmt.Fprintf(&b, "More suspect memories: call verify with cursor %q.\n", o.NextCursor)
	}
	return b.String()
}

// entries lists a vault, logging the files it skipped.
func (s *Server) entries(v *vault.Vault) []vault.Entry {
	entries, problems := v.List()
	for _, p := range problems {
		s.cfg.Log.Warn("skipped a memory file", "err", p)
	}
	return entries
}

// validEntries lists the memories of v that the agent may be given: the
// files that parse and validate ([refuseInvalid]); the others are logged.
func (s *Server) validEntries(v *vault.Vault) []vault.Entry {
	return slices.DeleteFunc(s.entries(v), func(e vault.Entry) bool {
		err := refuseInvalid(e.Name, e.Memory)
		if err != nil {
			s.cfg.Log.Warn("skipped a memory file", "err", err)
		}
		return err != nil
	})
}
