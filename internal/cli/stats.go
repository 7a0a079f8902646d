package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/spf13/cobra"

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
	IndexTok   int            `json:"index_tokens"`      // MEMORY.md of both vaults: loaded every session
	AllTok     int            `json:"monolithic_tokens"` // every memory file as one always-loaded file
	SavedTok   int            `json:"saved_tokens_per_session"`
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
MEMORY.md costs every session (in tokens, characters/4) with what all the
memories would cost as one file loaded every turn: the context tax saved.
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
		if data, err := safefile.Read(filepath.Join(v.Dir, vault.IndexFile), vault.MaxIndexFile); err == nil {
			s.IndexTok += memory.EstimateTokens(string(data))
		}
	}
	sort.Strings(s.Suspects)
	s.SavedTok = s.AllTok - s.IndexTok
	if in, err := f.inbox(); err == nil {
		drafts, _ := in.List()
		s.Drafts = len(drafts)
	}
	if state, err := f.StateDir(false); err == nil {
		if q, err := queue.Open(ctx, state); err == nil {
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
	fmt.Fprintf(w, "context      MEMORY.md costs %d tokens a session; all memories as one file would cost %d (%d saved)\n",
		s.IndexTok, s.AllTok, s.SavedTok)
	fmt.Fprintf(w, "extraction   %d jobs (%d skipped), %d facts, %d tokens in, %d out (today: %d in, %d out)\n",
		s.Extraction.Jobs, s.Extraction.Skipped, s.Extraction.Facts, s.Extraction.TokensIn, s.Extraction.TokensOut,
		s.Today.TokensIn, s.Today.TokensOut)
	if s.LastSkip != "" {
		fmt.Fprintf(w, "  skipped:   %s (the newest)\n", s.LastSkip)
	}
}
