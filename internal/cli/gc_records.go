package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// gcJSON is what 'mnemo gc --json' prints: the candidates, and what the
// records in the state folder kept and dropped (or would, without --apply).
type gcJSON struct {
	Candidates []gcCandidate       `json:"candidates"`
	Records    *consolidate.Pruned `json:"records,omitempty"`
	Applied    bool                `json:"applied"`
}

// pruneRecords prunes the project's records (provenance.jsonl, links.jsonl)
// of what no reader needs ([consolidate.Inbox.PruneRecords]); without apply
// it only counts. A project without a state folder has none.
func pruneRecords(ctx context.Context, f *Factory, apply bool) (*consolidate.Pruned, error) {
	in, err := f.inbox()
	if err != nil {
		return nil, err
	}
	p, err := in.PruneRecords(ctx, recordNames(f), f.Now(), apply)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// pruneRecordsDaily prunes the project's records once a day, as the
// worker does when it starts ([consolidate.Inbox.PruneDaily]). It is side
// work: a failure is logged, and fails nothing.
func pruneRecordsDaily(ctx context.Context, f *Factory) {
	log := f.Log(false)
	in, err := f.inbox()
	if err == nil {
		var p consolidate.Pruned
		var ok bool
		p, ok, err = in.PruneDaily(ctx, recordNames(f), f.Now())
		if ok && p.Sightings.Pruned+p.Links.Pruned > 0 {
			log.Info("records pruned", "sightings", p.Sightings.Pruned, "links", p.Links.Pruned,
				"provenance_bytes", p.Sightings.After, "links_bytes", p.Links.After)
		}
	}
	if err != nil {
		log.Warn("prune the records", "err", err)
	}
}

// recordNames lists the memories records may be about, outside the inbox:
// those of both vaults, read first, then those forgotten from either
// (a memory moved out is copied there before it leaves its vault).
func recordNames(f *Factory) consolidate.Names {
	return func() (map[string]bool, error) {
		out := map[string]bool{}
		add := func(names []string, err error) error {
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			for _, n := range names {
				out[n] = true
			}
			return nil
		}
		for _, user := range []bool{false, true} {
			v, err := f.Vault(user)
			if err != nil {
				return nil, err
			}
			if err := add(v.Names()); err != nil {
				return nil, err
			}
		}
		for _, user := range []bool{false, true} {
			state, err := f.StateDir(user)
			if err != nil {
				return nil, err
			}
			if err := add(vault.ForgottenNames(state)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// printPruned says what pruning dropped from the records, or would drop;
// nothing when nothing goes.
func printPruned(w io.Writer, p *consolidate.Pruned, applied bool) {
	if p == nil {
		return
	}
	var parts []string
	for _, c := range []struct {
		f         consolidate.PrunedFile
		one, many string
		file      string
	}{{p.Sightings, "sighting", "sightings", "provenance.jsonl"}, {p.Links, "link", "links", "links.jsonl"}} {
		if c.f.Pruned == 0 {
			continue
		}
		part := fmt.Sprintf("%d of %s", c.f.Pruned, plural.N(c.f.Pruned+c.f.Kept, c.one, c.many))
		if applied {
			part += fmt.Sprintf(" (%s %d -> %d bytes)", c.file, c.f.Before, c.f.After)
		}
		parts = append(parts, part)
	}
	switch {
	case len(parts) == 0:
	case applied:
		fmt.Fprintf(w, "records: pruned %s\n", strings.Join(parts, " and "))
	default:
		fmt.Fprintf(w, "records: %s would be pruned; run 'mnemo gc --apply'\n", strings.Join(parts, " and "))
	}
}
