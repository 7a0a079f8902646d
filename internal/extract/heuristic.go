package extract

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// Confidences the heuristic extractor gives. Only a statement the user
// asked to have remembered reaches the bar at which the approval policy
// makes a stated fact active ([approval.StatedAt]).
const (
	confRemember   = 0.9
	confStated     = 0.7  // a convention, decision with its reason, or identity the user stated
	confDirective  = 0.65 // an instruction or preference
	confWeak       = 0.6  // a decision without a reason, a reference, a dead end, a TODO
	confCorrection = 0.5  // a correction with no rule stated
	confCap        = 0.8  // the most any unremembered statement gets
)

// specPrompt is the length past which a prompt is taken to be a pasted
// specification: its always/never/don't sentences describe the task, not
// a lasting rule, unless the user asks to remember them or says they last
// ("from now on", "in this repo").
const specPrompt = 1200

// maxPerPrompt bounds the statements taken from one prompt.
const maxPerPrompt = 4

// Heuristic is the offline extractor. It reads the digest's structure,
// not its meaning: statements in the user's words (prompts, answers to
// the agent's questions, feedback given when rejecting a tool call: asked
// to be remembered; always, never, don't; we use; I prefer; we decided;
// corrections right after the assistant acted), problems the user
// reported that nothing says were fixed, shell commands that failed
// repeatedly and were abandoned for another that worked or that stopped
// at a prompt until run unattended, test and build commands that fail to
// the end, and TODOs left in the assistant's last message. It writes a
// fact as the fact, without "remember that" or the talk around it. Its candidates are below the
// auto-approve bar unless the user said to remember. A Heuristic is safe
// for concurrent use.
type Heuristic struct {
	rules    *rules
	redactor *redact.Redactor
}

// NewHeuristic returns the heuristic extractor; of cfg it uses only the
// Redactor.
func NewHeuristic(cfg Config) *Heuristic {
	r := cfg.Redactor
	if r == nil {
		r = redact.New(redact.Options{})
	}
	return &Heuristic{rules: newRules(), redactor: r}
}

// Name returns "heuristic".
func (h *Heuristic) Name() string { return ProviderHeuristic }

// Extract implements [Extractor]. It spends nothing and fails only when
// ctx has ended.
func (h *Heuristic) Extract(ctx context.Context, d *transcript.Digest) ([]Candidate, Usage, error) {
	if err := ctx.Err(); err != nil {
		return nil, Usage{}, fmt.Errorf("extract: heuristic: %w", err)
	}
	ps := newPaths(d.Meta.CWD, func() string { return h.redactor.String(d.String()) })
	var out []Candidate
	var prev *transcript.Turn
	for _, t := range d.Turns {
		switch t.Kind {
		case transcript.TurnPrompt:
			out = append(out, h.statements(t, prev, ps)...)
			prev = t
		case transcript.TurnContinued:
			prev = t
		}
		if t.Kind != transcript.TurnAgent {
			out = append(out, h.replies(t, ps)...)
		}
	}
	out = append(out, h.deadEnds(d, ps)...)
	out = append(out, h.todos(d, ps)...)
	out = append(out, h.reported(d, ps)...)
	out = append(out, h.unattended(d, ps)...)
	return finish(out, h.redactor, d.Meta.End), Usage{}, nil
}

// Remembered returns the candidates of d the person explicitly asked to
// have remembered ("remember that …", "keep in mind …"): what a session
// too short to be worth a model call still keeps. It fails only when ctx
// has ended.
func (h *Heuristic) Remembered(ctx context.Context, d *transcript.Digest) ([]Candidate, error) {
	cands, _, err := h.Extract(ctx, d)
	if err != nil {
		return nil, err
	}
	var out []Candidate
	for _, c := range cands {
		if c.Confidence == confRemember { // only a request to remember gets it
			out = append(out, c)
		}
	}
	return out, nil
}

// A statement is a run of adjacent sentences of one prompt that state
// one thing.
type statement struct {
	sentences []string
	kind      kind
	remember  bool
	para      int
}

// statements returns the candidates stated in a prompt turn; prev is the
// turn before it, to recognise a correction of what the assistant did.
func (h *Heuristic) statements(t, prev *transcript.Turn, ps paths) []Candidate {
	var out []Candidate
	for _, it := range t.Items {
		if it.Kind != transcript.ItemUser || strings.HasPrefix(strings.TrimSpace(it.Text), "/") {
			continue
		}
		ss := sentences(it.Text)
		corrected := prev != nil && acted(prev) && len(ss) > 0 && h.rules.correction.MatchString(lower(ss[0].text))
		out = append(out, h.stated(it.Text, ss, t, prev, corrected, ps)...)
	}
	return out
}

// stated returns the candidates the user's words text (split into ss)
// state in turn t; corrected says they correct what the assistant did in
// prev.
func (h *Heuristic) stated(text string, ss []sentence, t, prev *transcript.Turn, corrected bool, ps paths) []Candidate {
	var out []Candidate
	spec := utf8.RuneCountInString(text) > specPrompt && !h.rules.lasting.MatchString(lower(text))
	stmts := h.group(ss, spec)
	for _, st := range stmts[:min(len(stmts), maxPerPrompt)] {
		out = append(out, h.fromStatement(st, t, corrected, ps))
	}
	if corrected && len(stmts) == 0 {
		if c, ok := h.correctionOnly(ss, t, prev, ps); ok {
			out = append(out, c)
		}
	}
	return out
}

// group classifies the sentences of a prompt and joins adjacent ones of
// a kind that can be joined. "Remember that." on its own marks what the
// prompt stated before it, or, when nothing was, what it states next.
func (h *Heuristic) group(ss []sentence, spec bool) []*statement {
	var stmts []*statement
	var last *statement
	pending := false
	for _, s := range ss {
		l := lower(s.text)
		if h.rules.rememberOnly.MatchString(l) {
			for _, st := range stmts {
				st.remember = true
			}
			pending = len(stmts) == 0
			last = nil
			continue
		}
		k, rem := h.rules.classify(s.text)
		rem = rem || pending
		if k == kindNone || !rem && (h.rules.transient.MatchString(l) || spec && k == kindDirective) {
			last = nil
			continue
		}
		pending = false
		if last != nil && last.para == s.para && joinable(last.kind, k) && !h.rules.newPoint.MatchString(l) {
			last.sentences = append(last.sentences, s.text)
			last.remember = last.remember || rem
			if k == kindConvention {
				last.kind = k
			}
			continue
		}
		last = &statement{sentences: []string{s.text}, kind: k, remember: rem, para: s.para}
		stmts = append(stmts, last)
	}
	return stmts
}

// joinable reports whether a sentence of kind b continues a statement of
// kind a: instructions, conventions and preferences run together ("Don't
// use npm here. We use pnpm in web/."); a decision, an identity or a
// reference stands alone.
func joinable(a, b kind) bool {
	rule := func(k kind) bool { return k == kindDirective || k == kindConvention || k == kindPreference }
	return rule(a) && rule(b)
}

// acted reports whether the assistant did something in turn t.
func acted(t *transcript.Turn) bool {
	return slices.ContainsFunc(t.Items, func(it transcript.Item) bool {
		return it.Kind == transcript.ItemTool || it.Kind == transcript.ItemAssistant
	})
}

func (h *Heuristic) fromStatement(st *statement, t *transcript.Turn, corrected bool, ps paths) Candidate {
	text := strings.Join(st.sentences, " ")
	if m := h.rules.correction.FindStringIndex(lower(text)); corrected && m != nil {
		text = strings.TrimLeft(text[m[1]:], " ,.!:-") // "No, we only write…" states "We only write…"
	}
	text = h.distil(text)
	c := Candidate{
		Description: describe(text),
		Fact:        cutRunes(text, maxFactLen),
		Files:       h.files(text, ps),
		Why:         "the user stated it in turn " + strconv.Itoa(t.Index),
	}
	switch st.kind {
	case kindDecision:
		c.Type, c.Category, c.Confidence = memory.TypeProject, CategoryDecision, confWeak
		if h.rules.rationale.MatchString(lower(text)) {
			c.Confidence = confStated
		}
	case kindIdentity:
		c.Type, c.Category, c.Confidence = memory.TypeUser, CategoryPreference, confStated
	case kindPreference:
		c.Type, c.Category, c.Confidence = memory.TypeFeedback, CategoryPreference, confDirective
	case kindConvention:
		c.Type, c.Category, c.Confidence = memory.TypeProject, CategoryConvention, confStated
	case kindReference:
		c.Type, c.Category, c.Confidence = memory.TypeReference, CategoryReference, confWeak
	default: // kindDirective
		c.Type, c.Category = h.ruleKind(text)
		c.Confidence = confDirective
	}
	if corrected {
		c.Confidence = min(c.Confidence+0.05, confCap)
		c.Why = "the user corrected the assistant in turn " + strconv.Itoa(t.Index)
	}
	if st.remember {
		c.Confidence = confRemember
		c.Why = "the user asked to remember it in turn " + strconv.Itoa(t.Index)
	}
	return c
}

// distil reduces the user's words to the fact they state: without the
// request to remember it ("Remember that …", "…, keep that in mind"), the
// fillers before it ("basically", "just so you know") and spaces.
func (h *Heuristic) distil(text string) string {
	text = tidy(text)
	if m := h.rules.rememberLead.FindStringSubmatchIndex(lower(text)); m != nil && m[0] == 0 {
		text = text[m[2]:]
	}
	if m := h.rules.rememberTail.FindStringIndex(lower(text)); m != nil && m[0] > 0 {
		text = text[:m[0]]
	}
	return tidy(strings.TrimRight(text, " ,;:—–-"))
}

// ruleKind says whether an instruction is a convention of the project
// (it names a path, a code identifier or a thing in code: errors, tests,
// imports, logs…) or a preference about how the assistant works with the
// user (show me, ask, explain), which is the default.
func (h *Heuristic) ruleKind(text string) (memory.Type, string) {
	l := lower(text)
	if !h.rules.toUser.MatchString(l) && (h.rules.projectMarker.MatchString(l) || h.rules.codeNoun.MatchString(l)) {
		return memory.TypeProject, CategoryConvention
	}
	return memory.TypeFeedback, CategoryPreference
}

// correctionOnly makes a candidate of a correction that states no rule
// the other patterns see ("No, use the v2 client instead"), when it reads
// as one that could hold beyond the moment.
func (h *Heuristic) correctionOnly(ss []sentence, t, prev *transcript.Turn, ps paths) (Candidate, bool) {
	var parts []string
	for _, s := range ss[:min(2, len(ss))] {
		if s.para != ss[0].para {
			break
		}
		parts = append(parts, s.text)
	}
	text := strings.Join(parts, " ")
	l := lower(text)
	if m := h.rules.correction.FindStringIndex(l); m != nil {
		text = strings.TrimLeft(text[m[1]:], " ,.!:-")
		l = lower(text)
	}
	if len(strings.Fields(text)) < 4 || !h.rules.generalizes.MatchString(l) || h.rules.transient.MatchString(l) {
		return Candidate{}, false
	}
	text = tidy(text)
	typ, cat := h.ruleKind(text)
	return Candidate{
		Description: describe(text),
		Fact:        cutRunes(text, maxFactLen),
		Type:        typ,
		Category:    cat,
		Files:       h.files(text, ps),
		Confidence:  confCorrection,
		Why:         "the user corrected what the assistant did in turn " + strconv.Itoa(prev.Index),
	}, true
}

// files returns the paths text mentions that are files under the cwd; a
// folder it mentions stands for its package manifest, when it has one.
func (h *Heuristic) files(text string, ps paths) []string {
	manifests := []string{"package.json", "go.mod", "Cargo.toml", "pyproject.toml", "mix.exs", "Gemfile", "pom.xml", "build.gradle", "composer.json"}
	var out []string
	add := func(p string) {
		if p != "" && !slices.Contains(out, p) && len(out) < maxFiles {
			out = append(out, p)
		}
	}
	for _, m := range h.rules.pathToken.FindAllStringSubmatch(text, -1) {
		tok := strings.TrimRight(m[1], ".,;:!)")
		if !strings.Contains(tok, "/") && !strings.Contains(strings.TrimLeft(tok, "."), ".") {
			continue
		}
		if p := ps.clean(tok); p != "" {
			add(p)
			continue
		}
		if ps.fsys == nil {
			continue
		}
		dir := path.Clean(strings.TrimPrefix(tok, "./"))
		if fi, err := fs.Stat(ps.fsys, dir); err != nil || !fi.IsDir() {
			continue
		}
		for _, name := range manifests {
			if p := ps.clean(path.Join(dir, name)); p != "" {
				add(p)
				break
			}
		}
	}
	return out
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
