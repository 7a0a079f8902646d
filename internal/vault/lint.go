package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// A Severity says whether a finding fails lint.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// A Finding is one problem lint found, located as precisely as it can be.
type Finding struct {
	File     string   `json:"file"`
	Line     int      `json:"line,omitempty"`
	Field    string   `json:"field,omitempty"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

func (f Finding) String() string {
	pe := memory.ParseError{Path: f.File, Line: f.Line, Field: f.Field, Err: errors.New(f.Message)}
	if f.Severity == SeverityWarning {
		pe.Err = errors.New("warning: " + f.Message)
	}
	return pe.Error()
}

// Lint checks every file of the vault and reports every problem: headers
// that do not parse or validate, names that do not match their file, bodies
// longer than one fact, duplicate descriptions, links to memories that do
// not exist, and a MEMORY.md that is out of date or past Claude Code's load
// limit. Errors fail lint; warnings do not.
func (v *Vault) Lint() []Finding {
	var out []Finding
	des, err := os.ReadDir(v.Dir)
	if err != nil {
		return []Finding{{File: v.Dir, Severity: SeverityError, Message: err.Error()}}
	}
	var entries []Entry
	ps := v.newPass(false) // git asked once for every file, not once a file
	defer ps.done()
	for _, de := range des {
		if atomicfile.IsTemp(de.Name()) {
			out = append(out, Finding{File: v.rel(de.Name()), Severity: SeverityWarning,
				Message: "left by a write that did not finish: remove it (the next write to the vault does)"})
			continue
		}
		if !isMemoryFile(de.Name()) {
			continue
		}
		name := strings.TrimSuffix(de.Name(), ".md")
		m, err := v.loadWith(name, ps)
		if err != nil {
			out = append(out, errorFinding(err))
			continue
		}
		for _, p := range memory.Problems(m.Validate(v.rel(de.Name()))) {
			out = append(out, errorFinding(p))
		}
		if n := len(strings.Fields(m.Body)); n > memory.BodyWordsWarning {
			out = append(out, Finding{File: v.rel(de.Name()), Severity: SeverityWarning,
				Message: fmt.Sprintf("body is %d words: a memory holds one fact (split it past %d)", n, memory.BodyWordsWarning)})
		}
		entries = append(entries, Entry{Name: name, Memory: m})
	}
	out = append(out, v.lintDescriptions(entries)...)
	out = append(out, v.lintLinks(entries)...)
	return append(out, v.lintIndex(entries)...)
}

func errorFinding(err error) Finding {
	var pe *memory.ParseError
	if errors.As(err, &pe) {
		return Finding{File: pe.Path, Line: pe.Line, Field: pe.Field, Severity: SeverityError, Message: pe.Err.Error()}
	}
	var fe *FileError
	if errors.As(err, &fe) {
		return Finding{File: fe.Path, Severity: SeverityError, Message: fe.Err.Error()}
	}
	return Finding{Severity: SeverityError, Message: err.Error()}
}

func (v *Vault) lintDescriptions(entries []Entry) []Finding {
	var out []Finding
	first := make(map[string]string)
	for _, e := range entries {
		key := strings.ToLower(strings.Join(strings.Fields(e.Memory.Description), " "))
		if key == "" {
			continue
		}
		if other, ok := first[key]; ok {
			out = append(out, Finding{File: v.rel(e.Name + ".md"), Line: e.Memory.Line("description"), Field: "description",
				Severity: SeverityWarning, Message: fmt.Sprintf("same as %s.md: recall cannot tell them apart", other)})
			continue
		}
		first[key] = e.Name
	}
	return out
}

func (v *Vault) lintLinks(entries []Entry) []Finding {
	var out []Finding
	g := LinkGraph(entries)
	for _, e := range entries {
		for _, to := range g.Links[e.Name] {
			if _, dangling := g.Dangling[to]; dangling {
				out = append(out, Finding{File: v.rel(e.Name + ".md"), Line: e.Memory.BodyLine("[[" + to),
					Severity: SeverityWarning, Message: fmt.Sprintf("[[%s]] links to no memory yet: one worth writing", to)})
			}
		}
	}
	return out
}

func (v *Vault) lintIndex(entries []Entry) []Finding {
	path := filepath.Join(v.Dir, IndexFile)
	rel := v.rel(IndexFile)
	data, err := safefile.Read(path, MaxIndexFile)
	if errors.Is(err, fs.ErrNotExist) {
		return []Finding{{File: rel, Severity: SeverityWarning, Message: "missing: run 'mnemo reindex'"}}
	}
	if err != nil {
		return []Finding{{File: rel, Severity: SeverityError, Message: fmt.Sprintf("%v: remove it, then run 'mnemo reindex'", errors.Unwrap(err))}}
	}
	var out []Finding
	if lines := strings.Count(string(data), "\n"); lines > MaxIndexLines || len(data) > MaxIndexBytes {
		out = append(out, Finding{File: rel, Severity: SeverityWarning, Message: fmt.Sprintf(
			"%d lines, %d bytes: Claude Code loads only the first %d lines or %d bytes; shorten the text outside the mnemo block",
			lines, len(data), MaxIndexLines, MaxIndexBytes)})
	}
	if first, last := IndexConflict(data); first > 0 {
		out = append(out, Finding{File: rel, Line: first, Severity: SeverityError, Message: fmt.Sprintf(
			"git conflict in lines %d-%d: run 'mnemo reindex': it keeps both sides' lines (regenerating mnemo's), then check the text below mnemo's block", first, last)})
	} else {
		for i, line := range strings.Split(string(data), "\n") {
			if conflictRE.MatchString(line) && !strings.HasPrefix(line, "=======") {
				out = append(out, Finding{File: rel, Line: i + 1, Severity: SeverityError,
					Message: "git conflict marker, of a conflict not closed: keep what each side wrote, remove the markers, then run 'mnemo reindex'"})
				break
			}
		}
	}
	for _, p := range PlantedLines(data) {
		out = append(out, Finding{File: rel, Line: p.Line, Severity: SeverityError, Message: "a line outside mnemo's block " + p.Problem +
			", and Claude Code loads MEMORY.md as instructions: move it into a memory file, where it waits for review, or remove it"})
	}
	lines, names := nativeDuplicates(string(data), listedNames(entries))
	for i, n := range lines {
		out = append(out, Finding{File: rel, Line: n, Severity: SeverityWarning, Message: fmt.Sprintf(
			"a line outside mnemo's block lists %s.md, which the block lists too: run 'mnemo reindex' (it absorbs the line)", names[i])})
	}
	if string(RenderIndex(data, entries)) != string(data) {
		out = append(out, Finding{File: rel, Severity: SeverityWarning, Message: "out of date: run 'mnemo reindex'"})
	}
	return out
}
