package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// printJSON writes v as indented JSON: the stable form for scripts.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// warnProblems prints files a listing skipped, so none goes unnoticed.
func warnProblems(w io.Writer, problems []error) {
	for _, p := range problems {
		fmt.Fprintf(w, "warning: skipped %v\n", p)
	}
}

// memoryJSON is how commands print a memory with --json. Fields are added,
// never change meaning.
type memoryJSON struct {
	Name         string                 `json:"name"`
	Description  string                 `json:"description"`
	Type         memory.Type            `json:"type"`
	Status       memory.Status          `json:"status"`
	Confidence   float64                `json:"confidence"`
	Created      *time.Time             `json:"created,omitempty"`
	Updated      *time.Time             `json:"updated,omitempty"`
	Source       string                 `json:"source,omitempty"`
	Why          string                 `json:"why,omitempty"`
	SupersededBy string                 `json:"superseded_by,omitempty"`
	ReviewBy     string                 `json:"review_by,omitempty"`
	Anchors      *anchorsJSON           `json:"anchors,omitempty"`
	Tags         []string               `json:"tags,omitempty"`
	Path         string                 `json:"path"`
	Vault        string                 `json:"vault"`
	Body         string                 `json:"body,omitempty"`
	Links        []string               `json:"links,omitempty"`
	Backlinks    []string               `json:"backlinks,omitempty"`
	Drafts       []linkJSON             `json:"drafts,omitempty"`    // show: drafts in the inbox about this memory
	About        *linkJSON              `json:"about,omitempty"`     // inbox: the memory this draft contradicts or would change
	Review       string                 `json:"review,omitempty"`    // inbox: why a vault file waits for review
	Reasons      []consolidate.Reason   `json:"reasons,omitempty"`   // inbox: why a draft is a draft
	Closest      *closestJSON           `json:"closest,omitempty"`   // inbox: the existing memory closest to a draft
	Excerpt      string                 `json:"excerpt,omitempty"`   // inbox: the lines of the session a draft came from
	Rejection    *consolidate.Rejection `json:"rejection,omitempty"` // inbox: the teammate's rejection a draft repeats (reason rejected_by_team)
}

// linkJSON is a link between a draft and a memory: Name is the other end.
type linkJSON struct {
	Kind consolidate.LinkKind `json:"kind"` // contradicts or changes
	Name string               `json:"name"`
}

type anchorsJSON struct {
	Commit string              `json:"commit,omitempty"`
	Files  []memory.FileAnchor `json:"files,omitempty"`
}

func toJSON(v *vault.Vault, user bool, e vault.Entry, withBody bool) memoryJSON {
	m := e.Memory
	out := memoryJSON{
		Name: e.Name, Description: m.Description, Type: m.Type, Status: m.Status,
		Confidence: m.Confidence, Source: m.Source, Why: m.Why,
		SupersededBy: m.SupersededBy, Tags: m.Tags, Vault: "project",
	}
	if v != nil {
		out.Path = v.Path(e.Name)
	}
	if user {
		out.Vault = "user"
	}
	if out.Status == "" {
		out.Status = memory.StatusActive
	}
	if !m.Created.IsZero() {
		out.Created = &m.Created
	}
	if !m.Updated.IsZero() {
		out.Updated = &m.Updated
	}
	if !m.ReviewBy.IsZero() {
		out.ReviewBy = m.ReviewBy.Format(time.DateOnly)
	}
	if !m.Anchors.IsZero() {
		out.Anchors = &anchorsJSON{Commit: m.Anchors.Commit, Files: m.Anchors.Files}
	}
	if withBody {
		out.Body = m.Body
		out.Links = m.Links()
	}
	return out
}
