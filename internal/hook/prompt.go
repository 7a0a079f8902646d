package hook

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

// The bar a memory clears to be injected beside a prompt. Recall's scores
// are relative (the best match of any query scores about 1), so the bar is
// about the words: a memory must share at least two of the prompt's words
// (or its only one), and, for a long prompt, three or a quarter of them.
const (
	minShared   = 2
	minCoverage = 0.25
	enoughTerms = 3
)

// userPromptSubmit records the prompt (see recordPrompt), recalls against
// it and returns up to PromptMax
// memories that clear the bar and that this session has not been given
// yet, within PromptBudget characters.
func userPromptSubmit(ctx context.Context, w *world, in Input) (string, error) {
	if err := recordPrompt(w, in); err != nil {
		w.log.Warn("record the prompt", "session", in.SessionID, "err", err)
	}
	prompt := strings.TrimSpace(in.Prompt)
	if prompt == "" || strings.HasPrefix(prompt, "/") {
		return "", nil // nothing to recall against, or a slash command
	}
	terms := recall.Terms(prompt)
	if len(terms) == 0 {
		return "", nil
	}
	db, err := w.openIndex(ctx)
	if errors.Is(err, errIndexBuilding) {
		return "", nil // nothing to recall from until the worker has built the index
	}
	if err != nil {
		return "", err
	}
	defer db.Close()
	given := map[index.Key]bool{}
	if in.SessionID != "" {
		inj, err := db.Injected(ctx, in.SessionID)
		if err != nil {
			return "", err
		}
		for k := range inj {
			given[k] = true
		}
	}
	cfg := recall.DefaultConfig()
	flagged, err := db.Flagged(ctx)
	if err == nil {
		cfg.Suspect = staleness.SuspectFunc(flagged)
	}
	q := recall.Query{Text: prompt, Limit: 10, Now: w.now}
	results, err := recall.New(db, cfg).Recall(ctx, q) // by words: see below
	if err != nil {
		return "", err
	}
	rv := natives(ctx, w)
	skip := func(k index.Key) bool { return given[k] || rv.unreviewed(k) }
	// Meaning decides which of the memories that clear the bar fill the
	// slots, when there are more of them: it cannot add one (the bar asks
	// for shared words), and the prompt is only embedded when it matters.
	if w.semantic != nil && eligible(results, len(terms), skip) > PromptMax {
		cfg.Semantic = w.semantic
		if results, err = recall.New(db, cfg).Rerank(ctx, q, results); err != nil {
			return "", err
		}
	}
	br := newBrief(PromptBudget)
	picked := pick(br, results, len(terms), skip, flagged)
	if len(picked) == 0 {
		return "", nil
	}
	// The injection must be recorded, or the next prompt repeats it.
	out := br.String()
	d := index.Delivery{Session: in.SessionID, Event: index.EventPrompt, Chars: utf8.RuneCountInString(out), Injected: picked, Recalled: picked}
	if err := db.Record(ctx, w.now, d); err != nil {
		return "", err
	}
	return out, nil
}

// pick adds to br up to PromptMax of results that clear the bar, skipping
// those skip names and those that say the same fact as one picked, each
// with the note its verdict calls for, and returns their keys.
func pick(br *brief, results []recall.Result, terms int, skip func(index.Key) bool, flagged map[index.Key]index.Verdict) []index.Key {
	var picked []index.Key
	s := &session{}
	for _, r := range results {
		if len(picked) == PromptMax {
			break
		}
		if skip(r.Key) || !clears(len(r.Why.Terms), terms) {
			continue
		}
		text := docText(r.Doc)
		if s.repeats(text) {
			continue // the same fact as one picked: one is enough
		}
		if br.text("\n" + memoryText(r.Doc, note(flagged[r.Key]))) {
			picked = append(picked, r.Key)
			s.whole = append(s.whole, text)
		}
	}
	return picked
}

// note is what an agent is told beside a memory about its last verdict:
// a suspect one is given with its reasons, to check; a changed one whose
// names are all in place, with what changed.
func note(v index.Verdict) string {
	reasons := strings.Join(v.Reasons, "; ")
	switch staleness.State(v.State) {
	case staleness.Suspect:
		return suspectNote(reasons)
	case staleness.Intact:
		return reasons
	}
	return ""
}

// eligible counts the results [pick] may choose from: those that clear
// the bar and that skip does not name.
func eligible(results []recall.Result, terms int, skip func(index.Key) bool) int {
	n := 0
	for _, r := range results {
		if !skip(r.Key) && clears(len(r.Why.Terms), terms) {
			n++
		}
	}
	return n
}

// clears reports whether a memory sharing shared of a prompt's n words is
// relevant enough to inject unasked.
func clears(shared, n int) bool {
	if shared == 0 || shared < min(minShared, n) {
		return false
	}
	return shared >= enoughTerms || float64(shared) >= minCoverage*float64(n)
}
