package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/hook"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/safefile"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

type statsJSON struct {
	Memories   int            `json:"memories"`
	ByType     map[string]int `json:"by_type"`
	ByStatus   map[string]int `json:"by_status"`
	ByState    map[string]int `json:"by_state"` // fresh, suspect, unverifiable, unchecked
	Suspects   []string       `json:"suspects"`
	Drafts     int            `json:"drafts"`
	IndexTok   int            `json:"index_tokens"`             // the MEMORY.md Claude Code loads itself every session
	StartTok   int            `json:"session_start_tokens"`     // what session-start added, the mean per measured session
	PromptTok  int            `json:"prompt_tokens"`            // what the prompts' hook added, the mean per measured session
	Measured   int            `json:"measured_sessions"`        // the sessions on record those means come from
	SessionTok int            `json:"session_tokens"`           // index + session-start + prompts: a session's cost
	AllTok     int            `json:"monolithic_tokens"`        // every memory file as one always-loaded file
	SavedTok   int            `json:"saved_tokens_per_session"` // monolithic less a session's cost; never below 0
	Extraction queue.Totals   `json:"extraction"`
	Today      queue.Totals   `json:"extraction_today"`
	LastSkip   string         `json:"last_skipped,omitempty"` // why the newest skipped job was skipped
}

func newStatsCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Counts, staleness, and the context tax mnemo saves",
		Long: `Count the memories of the project and user vaults by type, status and
verification state; list the suspects; count the drafts; and compare what
a session really costs (in tokens, characters/4: the MEMORY.md Claude Code
loads itself, plus what session-start and the prompts' hook added, the mean
of the sessions on record) with what all the memories would cost as one
file loaded every turn: the context tax saved.
Also the tokens the worker's extractions spent, in all and today.`,
		Example: `  mnemo stats
  mnemo stats --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := collectStats(cmd.Context(), f)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f.IO.Out, s)
			}
			printStats(f, s)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func collectStats(ctx context.Context, f *Factory) (statsJSON, error) {
	s := statsJSON{ByType: map[string]int{}, ByStatus: map[string]int{}, ByState: map[string]int{}, Suspects: []string{}}
	db, _, err := openSyncedIndex(ctx, f, false)
	if err != nil {
		return s, err
	}
	verdicts, err := db.Verdicts(ctx)
	if err != nil {
		db.Close()
		return s, err
	}
	err = s.addCosts(ctx, db)
	db.Close()
	if err != nil {
		return s, err
	}
	for _, user := range []bool{false, true} {
		v, err := f.Vault(user)
		if err != nil {
			return s, err
		}
		entries, _ := v.List()
		source := map[bool]string{false: "project", true: "user"}[user]
		for _, e := range entries {
			s.Memories++
			s.ByType[string(e.Memory.Type)]++
			st := string(e.Memory.Status)
			if st == "" {
				st = string(memory.StatusActive)
			}
			s.ByStatus[st]++
			state := "unchecked"
			if vd, ok := verdicts[index.Key{Source: source, Name: e.Name}]; ok {
				state = vd.State
			}
			s.ByState[state]++
			if state == "suspect" {
				s.Suspects = append(s.Suspects, e.Name)
			}
			s.AllTok += memory.EstimateTokens(string(e.Memory.Render()))
		}
		if user || !loadedNatively(f, v.Dir) {
			continue // its lines reach a session through session-start, measured there
		}
		if data, err := safefile.Read(filepath.Join(v.Dir, vault.IndexFile), vault.MaxIndexFile); err == nil {
			s.IndexTok += memory.EstimateTokens(string(data))
		}
	}
	sort.Strings(s.Suspects)
	s.SessionTok = s.IndexTok + s.StartTok + s.PromptTok
	s.SavedTok = max(s.AllTok-s.SessionTok, 0)
	if state, err := f.StateDir(false); err == nil {
		s.Drafts = consolidate.Waiting(state)
		if q, err := queue.Open(ctx, state, nil); err == nil {
			s.Extraction, _ = q.Totals(ctx, time.Time{})
			s.Today, _ = q.Totals(ctx, f.Now().UTC().Truncate(24*time.Hour))
			s.LastSkip, _ = q.LastSkip(ctx)
			q.Close()
		}
	}
	return s, nil
}

func printStats(f *Factory, s statsJSON) {
	w := f.IO.Out
	fmt.Fprintf(w, "memories     %d (user %d, feedback %d, project %d, reference %d; superseded %d)\n",
		s.Memories, s.ByType["user"], s.ByType["feedback"], s.ByType["project"], s.ByType["reference"], s.ByStatus["superseded"])
	fmt.Fprintf(w, "verified     %d fresh, %d suspect, %d unverifiable, %d not checked yet\n",
		s.ByState["fresh"], s.ByState["suspect"], s.ByState["unverifiable"], s.ByState["unchecked"])
	for _, n := range s.Suspects {
		fmt.Fprintf(w, "  suspect    %s\n", n)
	}
	fmt.Fprintf(w, "drafts       %d in the inbox\n", s.Drafts)
	fmt.Fprintf(w, "context      %s\n", contextLine(s))
	fmt.Fprintf(w, "extraction   %d jobs (%d skipped), %d facts, %d tokens in, %d out (today: %d in, %d out)\n",
		s.Extraction.Jobs, s.Extraction.Skipped, s.Extraction.Facts, s.Extraction.TokensIn, s.Extraction.TokensOut,
		s.Today.TokensIn, s.Today.TokensOut)
	if s.LastSkip != "" {
		fmt.Fprintf(w, "  skipped:   %s (the newest)\n", s.LastSkip)
	}
}

// addCosts fills in what the hooks gave a session, the mean over the
// sessions on record.
func (s *statsJSON) addCosts(ctx context.Context, db *index.DB) error {
	cost, err := db.Costs(ctx)
	if err != nil || cost.Sessions == 0 {
		return err
	}
	s.Measured = cost.Sessions
	s.StartTok = tokensOf(cost.Chars[index.EventSessionStart]) / cost.Sessions
	s.PromptTok = tokensOf(cost.Chars[index.EventPrompt]) / cost.Sessions
	return nil
}

// contextLine says what a session costs against one file holding every
// memory.
func contextLine(s statsJSON) string {
	sessions := "sessions"
	if s.Measured == 1 {
		sessions = "session"
	}
	cost := fmt.Sprintf("a session costs %d tokens (MEMORY.md %d, session-start %d, prompts %d: the mean of %d %s)",
		s.SessionTok, s.IndexTok, s.StartTok, s.PromptTok, s.Measured, sessions)
	if s.Measured == 0 {
		cost = fmt.Sprintf("a session costs %d tokens of MEMORY.md (what the hooks add is measured from the first session on)", s.IndexTok)
	}
	if s.SavedTok == 0 {
		return fmt.Sprintf("nothing saved: %s; all memories as one file would cost %d", cost, s.AllTok)
	}
	return fmt.Sprintf("%s; all memories as one file would cost %d (%d saved)", cost, s.AllTok, s.SavedTok)
}

// tokensOf is the token estimate of n characters ([memory.EstimateTokens]).
func tokensOf(n int) int { return (n + 3) / 4 }

// loadedNatively reports whether Claude Code loads the project vault's
// MEMORY.md itself.
func loadedNatively(f *Factory, dir string) bool {
	p, err := f.findProject()
	return err == nil && hook.LoadedNatively(p, f.Env, dir)
}
