package hook

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// maxBodies is how many bodies SessionStart gives: a few, the rest are
// recalled when a prompt needs them. It considers the topN memories most
// worth having, checking the anchors of each in turn until maxBodies pass.
const (
	topN      = 3 * maxBodies
	maxBodies = 5
)

// sessionStart composes the context a session starts with: the user
// vault's index, the project vault's index (unless the agent loads it
// itself), memories whose code changed, the inbox, and the bodies of the
// memories most worth having; after a compaction, first what this session
// wrote.
func sessionStart(ctx context.Context, w *world, in Input) (string, error) {
	br := newBrief(SessionStartBudget)
	native, all := natives(ctx, w) // first: it may regenerate MEMORY.md
	warning := provenance.Summary(all)
	db, err := w.openIndex(ctx)
	if errors.Is(err, errIndexBuilding) {
		// Until the worker has built the index: the index lines only.
		addIndexes(br, w)
		if warning != "" {
			br.text("\n" + warning + ".\n")
		}
		return br.String(), nil
	}
	if err != nil {
		return "", err
	}
	defer db.Close()
	top, err := db.Top(ctx, topN)
	if err != nil {
		return "", err
	}
	top = reviewed(top, native)
	injected := map[index.Key]bool{}
	if in.Source == "compact" {
		if start, ok := transcriptStart(in.TranscriptPath); ok {
			mine, err := db.UpdatedSince(ctx, start, 10)
			if err != nil {
				return "", err
			}
			addBodies(br, "Written in this session so far:", reviewed(mine, native), injected)
		}
	}
	addIndexes(br, w)
	stale, worth := suspects(ctx, w, db, top)
	br.section("Possibly stale (the code they describe changed; verify before use):", stale, "possibly stale: run `mnemo verify`")
	if c := vault.Conflicted(w.p.VaultDir()); len(c) > 0 {
		br.text(fmt.Sprintf("\nIn a git merge conflict, so not read as memories: %s. Resolve them, then run `mnemo reindex`.\n", strings.Join(c, ", ")))
	}
	if n := countDrafts(w.state); n > 0 {
		br.text(fmt.Sprintf("\n%d draft memories wait for review: run `mnemo inbox`.\n", n))
	}
	if warning != "" {
		br.text("\n" + warning + ".\n")
	}
	addBodies(br, "Memories worth having:", worth, injected)
	if len(injected) > 0 && in.SessionID != "" {
		keys := make([]index.Key, 0, len(injected))
		for k := range injected {
			keys = append(keys, k)
		}
		if err := db.RecordInjection(ctx, in.SessionID, w.now, keys...); err != nil {
			w.log.Warn("record injection", "err", err)
		}
	}
	return br.String(), nil
}

// suspects returns the memories that may be stale, as lines with their
// reasons, and the first maxBodies of top that are not. Suspect are what
// the last mnemo verify found, and those of top whose anchors changed,
// checked now (hashes only: no git here) until maxBodies pass.
func suspects(ctx context.Context, w *world, db *index.DB, top []index.Doc) (stale []string, worth []index.Doc) {
	suspect := map[index.Key]bool{}
	verdicts, _ := db.Suspects(ctx)
	for _, k := range sortedKeys(verdicts) {
		if v := verdicts[k]; v.State == string(staleness.Suspect) {
			stale = append(stale, fmt.Sprintf("- %s: %s", k.Name, strings.Join(v.Reasons, "; ")))
			suspect[k] = true
		}
	}
	for _, d := range top {
		if len(worth) == maxBodies {
			break
		}
		if suspect[d.Key] {
			continue
		}
		if reasons := docChanged(w.p.Root, d); len(reasons) > 0 {
			stale = append(stale, fmt.Sprintf("- %s: %s", d.Name, strings.Join(reasons, "; ")))
			continue
		}
		worth = append(worth, d)
	}
	return stale, worth
}

// addBodies adds whole memories, as many as fit, under a title.
func addBodies(br *brief, title string, docs []index.Doc, injected map[index.Key]bool) {
	titled := false
	for _, d := range docs {
		if injected[d.Key] {
			continue
		}
		text := memoryText(d)
		if !titled {
			if !br.fits("\n" + title + "\n" + text) {
				continue
			}
			br.text("\n" + title + "\n")
			titled = true
		}
		if br.text(text) {
			injected[d.Key] = true
		}
	}
}

// memoryText is how one memory reads in injected context: its name, type
// and date, the description, then the body.
func memoryText(d index.Doc) string {
	date := ""
	if !d.Updated.IsZero() {
		date = ", " + d.Updated.Format(time.DateOnly)
	}
	return fmt.Sprintf("### %s (%s%s)\n%s\n%s\n", d.Name, d.Type, date, d.Description, strings.TrimSpace(d.Body))
}

func indexLines(dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, vault.IndexFile))
	if err != nil {
		return nil
	}
	return vault.IndexLines(data)
}

// docChanged checks the anchors of a memory with anchored files.
func docChanged(root string, d index.Doc) []string {
	if len(d.Files) == 0 || d.Source != "project" {
		return nil
	}
	data, err := os.ReadFile(d.Path)
	if err != nil {
		return nil
	}
	m, err := memory.Parse(d.Path, data)
	if err != nil {
		return nil
	}
	return staleness.Changed(root, m)
}

func countDrafts(state string) int {
	matches, _ := filepath.Glob(filepath.Join(state, "inbox", "*.md"))
	return len(matches)
}

func displayDir(root, dir string) string {
	if r, err := filepath.Rel(root, dir); err == nil && filepath.IsLocal(r) {
		return r
	}
	return dir
}

// loadedNatively reports whether Claude Code loads the vault's MEMORY.md
// itself: its autoMemoryDirectory setting points at the vault, or it is
// unset and the vault is Claude Code's own per-project folder.
func loadedNatively(p *project.Project, env project.Env, dir string) bool {
	setting := ""
	for _, f := range []string{
		filepath.Join(p.Root, ".claude", "settings.local.json"),
		filepath.Join(p.Root, ".claude", "settings.json"),
		filepath.Join(env.ClaudeHome(), "settings.json"),
	} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s struct {
			AutoMemoryDirectory *string `json:"autoMemoryDirectory"`
		}
		if json.Unmarshal(data, &s) == nil && s.AutoMemoryDirectory != nil {
			setting = *s.AutoMemoryDirectory
			break
		}
	}
	if setting == "" {
		return filepath.Clean(dir) == filepath.Clean(p.PrivateVaultDir())
	}
	return filepath.Clean(setting) == filepath.Clean(dir)
}

// transcriptStart reads when a session began from its transcript's first
// timestamped line.
func transcriptStart(path string) (time.Time, bool) {
	f, err := os.Open(path)
	if err != nil {
		return time.Time{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for i := 0; i < 20 && sc.Scan(); i++ {
		var line struct {
			Timestamp time.Time `json:"timestamp"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && !line.Timestamp.IsZero() {
			return line.Timestamp, true
		}
	}
	return time.Time{}, false
}

func sortedKeys(m map[index.Key]index.Verdict) []index.Key {
	keys := make([]index.Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b index.Key) int { return strings.Compare(a.String(), b.String()) })
	return keys
}

// addIndexes adds the index lines of the user vault and, unless the agent
// loads it itself, of the project vault.
func addIndexes(br *brief, w *world) {
	br.section("User memories (~/.mnemo/user, all projects):", indexLines(w.env.UserVaultDir()), "user memories: recall them by topic")
	if dir := w.p.VaultDir(); !loadedNatively(w.p, w.env, dir) {
		br.section("Project memories ("+displayDir(w.p.Root, dir)+"):", indexLines(dir), "project memories: recall them by topic")
	}
}
