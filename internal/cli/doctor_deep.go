package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/safefile"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// deepChecks are what doctor --deep adds: every memory file and draft
// parses, each vault's MEMORY.md is what its files make, the index holds
// what the vaults hold, and the queue is whole and consistent. Like the
// rest of doctor they only look, but for bringing the index (a cache) up to
// date with the files, as every command does.
func deepChecks(ctx context.Context, f *Factory) []check {
	p, err := f.Project()
	if err != nil {
		return nil
	}
	var out []check
	valid := map[string][]vault.Entry{} // by source: the memories the index must hold
	for _, user := range []bool{false, true} {
		v, err := f.Vault(user)
		if err != nil {
			continue // the vault check says why
		}
		entries, problems := v.List()
		texts := errorTexts(problems)
		var ok []vault.Entry
		for _, e := range entries {
			if err := e.Memory.Validate(e.Name + ".md"); err != nil {
				texts = append(texts, displayPath(f, v.Path(e.Name))+": "+err.Error())
				continue
			}
			ok = append(ok, e)
		}
		out = append(out, problemCheck("files", fmt.Sprintf("%s: %s", displayPath(f, v.Dir), plural.N(len(entries), "memory file parses", "memory files parse")),
			"fix each file (mnemo lint names the problems), then mnemo reindex", texts))
		out = append(out, indexFileCheck(f, v, entries))
		valid[map[bool]string{false: "project", true: "user"}[user]] = ok
	}
	state := p.StateDir()
	if fi, err := os.Stat(state); err != nil || !fi.IsDir() {
		return out
	}
	out = append(out, problemCheck("drafts", "every draft in the inbox parses", "fix or delete each draft",
		draftProblems(filepath.Join(state, consolidate.InboxFolder))))
	out = append(out, indexMatchCheck(ctx, f, valid))
	return append(out, queueAuditCheck(ctx, state))
}

// problemCheck is ok with okDetail when there is no problem, else fails
// listing them.
func problemCheck(name, okDetail, fix string, problems []string) check {
	if len(problems) == 0 {
		return check{Name: name, Status: "ok", Detail: okDetail}
	}
	return check{Name: name, Status: "fail", Detail: strings.Join(problems, "; "), Fix: fix}
}

func errorTexts(errs []error) []string {
	var out []string
	for _, err := range errs {
		out = append(out, strings.TrimPrefix(err.Error(), "vault: "))
	}
	return out
}

// indexFileCheck compares a vault's MEMORY.md with what its files make.
func indexFileCheck(f *Factory, v *vault.Vault, entries []vault.Entry) check {
	rel := displayPath(f, filepath.Join(v.Dir, vault.IndexFile))
	data, err := safefile.Read(filepath.Join(v.Dir, vault.IndexFile), vault.MaxIndexFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return check{Name: "memory.md", Status: "fail", Detail: rel + " is missing", Fix: "mnemo reindex"}
	case err != nil:
		return check{Name: "memory.md", Status: "fail", Detail: err.Error(), Fix: "remove it, then mnemo reindex"}
	case string(vault.RenderIndex(data, entries)) != string(data):
		return check{Name: "memory.md", Status: "fail", Detail: rel + " does not list what the memory files hold", Fix: "mnemo reindex"}
	}
	return check{Name: "memory.md", Status: "ok", Detail: rel + " matches the memory files"}
}

// draftProblems lists the drafts that do not load.
func draftProblems(dir string) []string {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil // no inbox yet
	}
	in := &consolidate.Inbox{Dir: dir}
	var out []string
	for _, de := range des {
		name, ok := strings.CutSuffix(de.Name(), ".md")
		if !ok || strings.HasPrefix(name, ".") {
			continue
		}
		if _, err := in.Load(name); err != nil {
			out = append(out, err.Error())
		}
	}
	return out
}

// indexMatchCheck brings the index up to date, as every command does,
// then compares it with the vaults: the same memories, each with the
// description and body of its file. (A sync skips a file whose size and
// time did not change: an index still behind after it is one that would
// answer from old text.)
func indexMatchCheck(ctx context.Context, f *Factory, sources map[string][]vault.Entry) check {
	db, _, err := openSyncedIndex(ctx, f, false)
	if err != nil {
		return check{Name: "index", Status: "fail", Detail: err.Error(), Fix: "mnemo reindex"}
	}
	defer db.Close()
	docs, err := db.All(ctx)
	if err != nil {
		return check{Name: "index", Status: "fail", Detail: err.Error(), Fix: "mnemo reindex"}
	}
	indexed := map[index.Key]index.Doc{}
	for _, d := range docs {
		indexed[d.Key] = d
	}
	var problems []string
	files := 0
	for source, entries := range sources {
		for _, e := range entries {
			files++
			k := index.Key{Source: source, Name: e.Name}
			d, ok := indexed[k]
			delete(indexed, k)
			switch {
			case !ok:
				problems = append(problems, k.String()+" is not in the index")
			case d.Description != e.Memory.Description || strings.TrimSpace(d.Body) != strings.TrimSpace(e.Memory.Body):
				problems = append(problems, k.String()+" is in the index as it was before its last change")
			}
		}
	}
	for k := range indexed {
		if _, mirrored := sources[k.Source]; mirrored {
			problems = append(problems, k.String()+" is in the index but in no memory file")
		}
	}
	// mnemo reindex rebuilds from every file, whatever its stat says.
	return problemCheck("index", fmt.Sprintf("the index holds the %s of the vaults as their files say", plural.N(files, "memory", "memories")),
		"mnemo reindex", problems)
}

// queueAuditCheck checks that the queue is whole and consistent.
func queueAuditCheck(ctx context.Context, state string) check {
	if _, err := os.Stat(filepath.Join(state, queue.FileName)); err != nil {
		return check{Name: "jobs", Status: "ok", Detail: "no queue yet"}
	}
	if err := queue.Check(ctx, state); err != nil {
		return check{Name: "jobs", Status: "fail", Detail: "queue.db: " + err.Error(),
			Fix: "mnemo queue (sets it aside, starts a new queue and names the sessions to ingest again)"}
	}
	q, err := queue.Open(ctx, state, nil)
	if err != nil {
		return check{Name: "jobs", Status: "fail", Detail: err.Error()}
	}
	defer q.Close()
	problems, err := q.Audit(ctx, queue.WorkerRunning(state))
	if err != nil {
		return check{Name: "jobs", Status: "fail", Detail: err.Error()}
	}
	return problemCheck("jobs", "no job leased by a dead worker, none done twice, every offset where its jobs left it",
		"mnemo worker --once takes the jobs of a dead worker again; mnemo queue shows the jobs", problems)
}
