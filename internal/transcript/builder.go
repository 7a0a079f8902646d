package transcript

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Builder assembles a [Digest] from entries given in file order. Feed it a
// session's main transcript and then its sub-agent files (see
// [SubagentFiles]) to digest them together. A Builder is not safe for
// concurrent use.
type Builder struct {
	opts     Options
	turns    []*Turn
	titles   []title         // legacy summary lines, in file order
	leaves   map[string]bool // uuids of the entries a summary line titles: true once seen
	meta     metaTracker
	metas    []Meta               // from the Readers given to ReadFrom
	cur      *Turn                // the open main-chain turn
	threads  map[string]*Turn     // sub-agent thread → its turn
	threadOf map[string]string    // side-chain uuid → thread
	lastMsg  map[*Turn]string     // message id of a turn's last prose item
	pending  map[string]*ToolCall // tool_use id → call awaiting its result
	calls    int
}

// NewBuilder returns an empty Builder.
func NewBuilder(opts Options) *Builder {
	return &Builder{
		opts:     opts.withDefaults(),
		threads:  make(map[string]*Turn),
		threadOf: make(map[string]string),
		lastMsg:  make(map[*Turn]string),
		pending:  make(map[string]*ToolCall),
		leaves:   make(map[string]bool),
	}
}

// A title is a legacy summary line: a title for the conversation that
// ends at its leaf. Claude Code writes them for other sessions too.
type title struct {
	text, leaf string
}

// ReadFrom adds every entry r returns until the end of its data. It returns
// a read error, or ctx's error when ctx ends first.
func (b *Builder) ReadFrom(ctx context.Context, r *Reader) error {
	defer func() { b.metas = append(b.metas, r.Meta()) }()
	for n := 0; ; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("transcript: digest: %w", err)
			}
		}
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		b.Add(e)
	}
}

// ReadFile adds the entries of the transcript at path from offset (0, or
// an offset [Reader.Offset] returned for the file) and returns the offset
// reached: where the next read of the file starts.
func (b *Builder) ReadFile(ctx context.Context, path string, offset int64) (int64, error) {
	r, err := Open(path, offset)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	if skipped := b.opts.Skipped; skipped != nil {
		r.Oversized = func(line int, off int64, size int) { skipped(path, line, off, size) }
	}
	if err := b.ReadFrom(ctx, r); err != nil {
		return 0, err
	}
	return r.Offset(), nil
}

// Add adds one entry.
func (b *Builder) Add(e Entry) {
	b.meta.observe(e.SessionID, e.CWD, e.GitBranch, e.Version, e.Sidechain)
	b.meta.observeTime(e.Time)
	if e.Sidechain {
		b.threadKey(e) // links the chain even through entries that add nothing
	}
	if _, ok := b.leaves[e.UUID]; ok && e.UUID != "" {
		b.leaves[e.UUID] = true
	}
	switch e.Type {
	case "summary":
		if text := cut(oneLine(b.opts.Redact(e.Text)), maxArg); text != "" {
			b.titles = append(b.titles, title{text: text, leaf: e.LeafUUID})
			if _, ok := b.leaves[e.LeafUUID]; !ok && e.LeafUUID != "" {
				b.leaves[e.LeafUUID] = false // until the leaf is read
			}
		}
	case "system":
		if e.Subtype == "compact_boundary" && !e.Sidechain {
			t := b.newTurn(TurnCompaction, e.Time)
			t.Items = append(t.Items, Item{Kind: ItemCompaction, Text: compactText(e.Compact)})
		}
	case "attachment":
		if text := CleanPrompt(e.Text); e.Queued && text != "" {
			t := b.turnFor(e)
			t.Items = append(t.Items, Item{Kind: ItemUser, Queued: true, Text: Elide(b.opts.Redact(text), b.opts.MaxPrompt)})
		}
	case "user":
		b.addUser(e)
	case "assistant":
		b.addAssistant(e)
	}
}

func compactText(c *CompactInfo) string {
	if c == nil {
		return "context compacted"
	}
	s := "context compacted"
	if c.Trigger != "" {
		s += " (" + c.Trigger + ")"
	}
	if c.PreTokens > 0 {
		s += ", " + strconv.Itoa(c.PreTokens) + " tokens before"
	}
	return s
}

func (b *Builder) addUser(e Entry) {
	if e.Meta {
		return // caveats and slash-command expansions: not typed by a person
	}
	if e.CompactSummary {
		text := cutSections(tidy(b.opts.Redact(entryText(e))), b.opts.MaxSummary)
		t := b.cur
		if e.Sidechain {
			t = b.turnFor(e)
		} else if t == nil || t.Kind != TurnCompaction || hasKind(t, ItemSummary) {
			t = b.newTurn(TurnCompaction, e.Time)
		}
		t.Items = append(t.Items, Item{Kind: ItemSummary, Text: text})
		return
	}
	var parts []string
	results := 0
	for _, blk := range e.Content {
		if blk.Type == "tool_result" {
			results++
		}
	}
	for _, blk := range e.Content {
		switch blk.Type {
		case "tool_result":
			b.addResult(blk, e, results == 1)
		case "text":
			if isInterruption(strings.TrimSpace(blk.Text)) {
				t := b.turnFor(e)
				t.Items = append(t.Items, Item{Kind: ItemNote, Text: "interrupted by user"})
			} else if s := CleanPrompt(blk.Text); s != "" {
				parts = append(parts, s)
			}
		case "image":
			parts = append(parts, "[image]")
		}
	}
	if len(parts) == 0 {
		return
	}
	kind := ItemUser
	if results > 0 {
		// Text beside a tool result is not typed by the person: Claude Code
		// sends what a person types as a message of its own, and anything
		// that rides along with a result (a hook's or a tool's addition, an
		// injected page) is the tool's.
		kind = ItemToolText
	} else if !e.Sidechain {
		b.newTurn(TurnPrompt, e.Time)
	}
	t := b.turnFor(e)
	text := b.opts.Redact(strings.Join(parts, "\n"))
	if kind == ItemUser && t.Kind == TurnAgent && t.prompt == "" {
		t.prompt = promptKey(text)
	}
	t.Items = append(t.Items, Item{Kind: kind, Text: Elide(text, b.opts.MaxPrompt)})
}

// entryText joins the text blocks of an entry's message.
func entryText(e Entry) string {
	var parts []string
	for _, blk := range e.Content {
		if blk.Type == "text" {
			parts = append(parts, blk.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func hasKind(t *Turn, k ItemKind) bool {
	for _, it := range t.Items {
		if it.Kind == k {
			return true
		}
	}
	return false
}

func (b *Builder) addAssistant(e Entry) {
	for _, blk := range e.Content {
		switch blk.Type {
		case "text":
			s := tidy(blk.Text)
			if s == "" {
				continue
			}
			s = b.opts.Redact(s)
			t := b.turnFor(e)
			if n := len(t.Items); n > 0 && t.Items[n-1].Kind == ItemAssistant && e.MessageID != "" && b.lastMsg[t] == e.MessageID {
				t.Items[n-1].Text += "\n" + s
				continue
			}
			t.Items = append(t.Items, Item{Kind: ItemAssistant, Text: s})
			b.lastMsg[t] = e.MessageID
		case "tool_use":
			b.addCall(blk, e)
		}
	}
}

func (b *Builder) addCall(blk Block, e Entry) {
	t := b.turnFor(e)
	info := describeCall(blk.Name, blk.Input, b.cwd(e))
	c := &ToolCall{
		ID: blk.ID, Name: blk.Name, Arg: b.opts.Redact(info.arg), Path: info.path, Op: info.op,
		Background: info.background, Turn: t.Index, thread: b.threadKey(e), seq: b.calls,
		Check: info.command.check, StatusOf: info.command.statusOf,
		prompt: promptKey(b.opts.Redact(CleanPrompt(info.prompt))),
	}
	for _, q := range info.questions {
		q.Text = b.opts.Redact(q.Text)
		for i, o := range q.Options {
			q.Options[i] = cut(b.opts.Redact(o), maxArg)
		}
		c.Questions = append(c.Questions, q)
	}
	b.calls++
	if blk.ID != "" {
		b.pending[blk.ID] = c
	}
	t.Items = append(t.Items, Item{Kind: ItemTool, Tool: c})
}

// addResult pairs a tool_result with its call. structured says whether the
// entry's toolUseResult belongs to this block (the line has no other result).
// The result's text is decoded only when the digest shows it.
func (b *Builder) addResult(blk Block, e Entry, structured bool) {
	c := b.pending[blk.ToolUseID]
	if c == nil {
		return // its call is in an earlier part of the transcript
	}
	delete(b.pending, blk.ToolUseID)
	if structured && e.Result != nil && e.Result.Interrupted {
		c.Interrupted = true
	}
	text := blk.ResultText()
	if !blk.IsError {
		c.Outcome = OutcomeOK
		switch c.Name {
		case "Write":
			if writeUpdated(blk, e.Result, structured) {
				c.Op = FileEdit
			}
		case "Task", "Agent":
			report := tidy(b.opts.Redact(agentReport(text)))
			c.Result = Elide(report, b.opts.MaxResult)
			c.reportKey = textKey(report)
			if structured && e.Result != nil {
				c.agentID = e.Result.AgentID
			}
		case "AskUserQuestion":
			var answers map[string]answerText
			if structured && e.Result != nil {
				answers = e.Result.Answers
			}
			b.addAnswers(c, text, answers)
		default:
			if c.Check {
				b.addOutput(c, text)
			}
		}
		return
	}
	if fb, ok := rejection(text); ok && rejectedByPerson(c.Name, e, structured) {
		c.Outcome = OutcomeRejected
		c.Feedback = Elide(b.opts.Redact(fb), b.opts.MaxPrompt)
		return
	}
	c.Outcome = OutcomeError
	if isInterruption(strings.TrimSpace(text)) {
		c.Interrupted = true
	}
	if c.Interrupted {
		return // the person's doing, not an error worth quoting
	}
	c.Exit, text = exitStatus(text)
	c.Error = excerptError(b.opts.Redact(text), b.opts.ErrorLines, maxLineWidth)
}

// writeUpdated reports whether a Write overwrote an existing file.
func writeUpdated(blk Block, r *ToolUseResult, structured bool) bool {
	if structured && r != nil && r.Kind != "" {
		return r.Kind == "update"
	}
	return strings.Contains(blk.ResultText(), "has been updated")
}

func (b *Builder) cwd(e Entry) string {
	if m := b.meta.meta(); m.CWD != "" {
		return m.CWD
	}
	if e.CWD != "" {
		return e.CWD
	}
	return b.opts.CWD
}

// newTurn opens a main-chain turn.
func (b *Builder) newTurn(kind TurnKind, at time.Time) *Turn {
	t := &Turn{Index: len(b.turns) + 1, Kind: kind, Time: at}
	b.turns = append(b.turns, t)
	b.cur = t
	return t
}

// turnFor returns the turn an entry belongs to: its sub-agent's, or the
// open main-chain turn (opened as TurnContinued when the part of the
// transcript being read starts mid-turn).
func (b *Builder) turnFor(e Entry) *Turn {
	if !e.Sidechain {
		if b.cur == nil {
			b.newTurn(TurnContinued, e.Time)
		}
		return b.cur
	}
	key := b.threadKey(e)
	t := b.threads[key]
	if t == nil {
		agent := key
		if e.AgentID == "" && len(agent) > 8 {
			agent = agent[:8]
		}
		agent = cut(oneLine(agent), 40)
		t = &Turn{Index: len(b.turns) + 1, Kind: TurnAgent, Agent: agent, Time: e.Time, thread: key}
		b.turns = append(b.turns, t)
		b.threads[key] = t
	}
	return t
}

// threadKey names the sub-agent conversation an entry belongs to: its
// agentId when the line has one, else the uuid of the root of its
// parentUuid chain. Main-chain entries belong to "".
func (b *Builder) threadKey(e Entry) string {
	if !e.Sidechain {
		return ""
	}
	if e.AgentID != "" {
		return e.AgentID
	}
	if k, ok := b.threadOf[e.UUID]; ok {
		return k
	}
	key := b.threadOf[e.ParentUUID]
	if key == "" {
		key = firstNonEmpty(e.UUID, "sidechain")
	}
	if e.UUID != "" {
		b.threadOf[e.UUID] = key
	}
	return key
}

// Digest returns the digest of the entries added so far: turns in the
// order they started, each sub-agent's turn linked to the call that
// started it. Prose is cut to size here, once whole messages are known;
// the Builder can keep going.
func (b *Builder) Digest() *Digest {
	d := &Digest{Meta: b.meta.meta(), Title: b.digestTitle()}
	for _, m := range b.metas {
		mergeMeta(&d.Meta, m)
	}
	setFirst(&d.Meta.CWD, b.opts.CWD)
	var calls []*ToolCall
	for _, t := range b.turns {
		tt := *t
		tt.Items = make([]Item, len(t.Items))
		for i, it := range t.Items {
			if it.Tool != nil {
				c := *it.Tool // a snapshot: later results do not change it
				c.Questions = slices.Clone(c.Questions)
				it.Tool = &c
				calls = append(calls, &c)
			}
			tt.Items[i] = it
		}
		d.Turns = append(d.Turns, &tt)
	}
	orderTurns(d.Turns, calls)
	linkAgents(d.Turns, calls)
	for _, t := range d.Turns {
		for i := range t.Items {
			if t.Items[i].Kind == ItemAssistant {
				t.Items[i].Text = Elide(t.Items[i].Text, b.opts.MaxProse)
			}
		}
	}
	return d
}

// mergeMeta fills what dst lacks from src and widens the time span.
func mergeMeta(dst *Meta, src Meta) {
	setFirst(&dst.SessionID, src.SessionID)
	setFirst(&dst.CWD, src.CWD)
	setFirst(&dst.GitBranch, src.GitBranch)
	setFirst(&dst.Version, src.Version)
	setFirst(&dst.Agent, src.Agent)
	if !src.Start.IsZero() && (dst.Start.IsZero() || src.Start.Before(dst.Start)) {
		dst.Start = src.Start
	}
	if src.End.After(dst.End) {
		dst.End = src.End
	}
}

// agentReport removes the bookkeeping Claude Code appends to a sub-agent's
// report: the agentId line and the <usage> block.
func agentReport(s string) string {
	s = replaceTag(s, "usage", func(string) string { return "" })
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(line, "agentId: ") {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}
