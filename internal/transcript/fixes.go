package transcript

import (
	"path"
	"slices"
	"strings"
)

// Files lists the files a digest's tool calls touched, each once, in the
// order first touched. A file created is not listed as edited, and a file
// created or edited is not listed as read.
type Files struct {
	Created []string
	Edited  []string
	Read    []string
}

// A Failure is a tool call that failed, grouped with later failures of a
// similar call in the same conversation, and what fixed it: the next
// successful similar call (for commands, the same program and subcommand;
// for file tools, the same file).
type Failure struct {
	Call    *ToolCall   // the first failing call
	Count   int         // failing calls in the group
	FixedBy *ToolCall   // nil when no later similar call succeeded
	After   []*ToolCall // up to three successful calls between the last failure and the fix
}

// maxAfter bounds [Failure.After].
const maxAfter = 3

// calls returns every tool call of the digest in the order they were made.
func (d *Digest) calls() []*ToolCall {
	var out []*ToolCall
	for _, t := range d.Turns {
		for _, it := range t.Items {
			if it.Tool != nil {
				out = append(out, it.Tool)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *ToolCall) int { return a.seq - b.seq })
	return out
}

// Files returns the files read, edited and created by successful calls.
func (d *Digest) Files() Files {
	var f Files
	op := map[string]FileOp{}
	var order []string
	for _, c := range d.calls() {
		if c.Outcome != OutcomeOK || c.Path == "" || c.Op == FileNone {
			continue
		}
		prev, seen := op[c.Path]
		if !seen {
			order = append(order, c.Path)
		}
		if !seen || c.Op > prev {
			op[c.Path] = c.Op // created > edited > read
		}
	}
	for _, p := range order {
		switch op[p] {
		case FileCreate:
			f.Created = append(f.Created, p)
		case FileEdit:
			f.Edited = append(f.Edited, p)
		case FileRead:
			f.Read = append(f.Read, p)
		}
	}
	return f
}

// Failures returns the failed calls of the digest, grouped, in the order
// they first failed: errors, and check commands whose output reports a
// failure that their status hides. Interrupted and rejected calls are not
// failures.
func (d *Digest) Failures() []*Failure {
	var all []*Failure
	open := map[string][]*Failure{} // per conversation, awaiting a fix
	last := map[*Failure]int{}      // index in byThread of the group's last failure
	byThread := map[string][]*ToolCall{}
	sigs := signatures{}
	for _, c := range d.calls() {
		th := c.thread
		byThread[th] = append(byThread[th], c)
		idx := len(byThread[th]) - 1
		switch {
		case c.failed():
			if i := slices.IndexFunc(open[th], func(f *Failure) bool { return sigs.similar(f.Call, c) }); i >= 0 {
				open[th][i].Count++
				last[open[th][i]] = idx
				continue
			}
			f := &Failure{Call: c, Count: 1}
			all = append(all, f)
			open[th] = append(open[th], f)
			last[f] = idx
		case c.succeeded():
			open[th] = slices.DeleteFunc(open[th], func(f *Failure) bool {
				if !sigs.similar(f.Call, c) {
					return false
				}
				f.FixedBy = c
				f.After = sigs.stepsBetween(byThread[th][last[f]+1:idx], f.Call)
				return true
			})
		}
	}
	return all
}

// stepsBetween picks the last few distinct successful calls of between that
// are not retries of the failed call.
func (sigs signatures) stepsBetween(between []*ToolCall, failed *ToolCall) []*ToolCall {
	var out []*ToolCall
	for i := len(between) - 1; i >= 0 && len(out) < maxAfter; i-- {
		c := between[i]
		if !c.succeeded() || sigs.similar(c, failed) {
			continue
		}
		if slices.ContainsFunc(out, func(o *ToolCall) bool { return o.Name == c.Name && o.Arg == c.Arg }) {
			continue
		}
		out = append(out, c)
	}
	slices.Reverse(out)
	return out
}

// similar reports whether b is another attempt at a's call: a write to
// the same file (Edit, MultiEdit, Write and NotebookEdit alike), the same
// command (see [commandSignature]), or the same tool with the same argument.
func similar(a, b *ToolCall) bool { return signatures{}.similar(a, b) }

// signatures holds the [commandSignature] of each command compared, for
// [Digest.Failures], which compares every call with each failure still
// open: a long session's commands are parsed once, not once a comparison.
type signatures map[string]signature

type signature struct{ sig, paths []string }

func (sigs signatures) of(cmd string) ([]string, []string) {
	s, ok := sigs[cmd]
	if !ok {
		s.sig, s.paths = commandSignature(cmd)
		sigs[cmd] = s
	}
	return s.sig, s.paths
}

// similar is [similar], the signatures parsed once.
func (sigs signatures) similar(a, b *ToolCall) bool {
	if writes(a.Name) && writes(b.Name) {
		return a.Path == b.Path
	}
	if a.Name != b.Name {
		return false
	}
	if a.Name != "Bash" && a.Name != "PowerShell" {
		return a.Arg == b.Arg
	}
	sa, pa := sigs.of(a.Arg)
	sb, pb := sigs.of(b.Arg)
	if len(sa) == 0 || len(sb) == 0 {
		return a.Arg == b.Arg
	}
	n := min(len(sa), len(sb))
	if !slices.Equal(sa[:n], sb[:n]) {
		return false
	}
	// A bare program ("ls types/") is about its paths; a subcommand
	// ("go test ./x") is about the subcommand.
	return n > 1 || slices.Equal(pa, pb)
}

func writes(tool string) bool {
	switch tool {
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		return true
	}
	return false
}

// commandSignature reduces a shell command to its program and up to two
// words that are neither flags, paths nor redirections, taken from the first
// part of a && / || / ; list that is not a cd, export or source: so
// "cd web && npm run build 2>&1 | tail" is [npm run build]. It also returns
// the path-like arguments of that part.
func commandSignature(cmd string) (sig, paths []string) {
	cmd, _, _ = strings.Cut(cmd, "\n")
	for _, seg := range splitAny(cmd, "&&", "||", ";") {
		seg, _, _ = strings.Cut(seg, "|")
		fields := strings.Fields(seg)
		for len(fields) > 0 && strings.Contains(fields[0], "=") {
			fields = fields[1:] // environment assignments
		}
		if len(fields) == 0 {
			continue
		}
		prog := path.Base(strings.Trim(fields[0], `"'`))
		switch prog {
		case "cd", "export", "source", ".", "set", "pushd", "popd", "sleep":
			continue
		}
		sig = []string{prog}
		for _, f := range fields[1:] {
			f = strings.Trim(f, `"'`)
			switch {
			case f == "" || strings.HasPrefix(f, "-") || strings.ContainsAny(f, "<>&$*="):
			case strings.ContainsAny(f, "/.~"):
				paths = append(paths, strings.TrimSuffix(f, "/"))
			case len(sig) < 3:
				sig = append(sig, f)
			}
		}
		return sig, paths
	}
	return nil, nil
}

func splitAny(s string, seps ...string) []string {
	parts := []string{s}
	for _, sep := range seps {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, sep)...)
		}
		parts = next
	}
	return parts
}
