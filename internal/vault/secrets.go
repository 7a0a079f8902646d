package vault

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// Secrets returns a [*redact.SecretError] for each secret in the file m
// would be written as, joined; nil when it holds none. It judges the bytes
// a write would store, header keys mnemo does not own included, and names
// each secret's place: the header key, or the body and its line.
func Secrets(m *memory.Memory) error {
	text := string(m.Render())
	found := redact.Find(text)
	if len(found) == 0 {
		return nil
	}
	bodyAt := len(text)
	if strings.HasSuffix(text, m.Body) {
		bodyAt -= len(m.Body)
	}
	errs := make([]error, 0, len(found))
	for _, f := range found {
		e := &redact.SecretError{Kind: f.Kind}
		if f.Start >= bodyAt {
			e.Field, e.Line = "body", strings.Count(text[bodyAt:f.Start], "\n")+1
		} else {
			e.Field = headerKey(text, f.Start)
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// headerKey returns the top-level key of the header line holding offset
// i of a memory file's text, or "header".
func headerKey(text string, i int) string {
	for {
		start := strings.LastIndexByte(text[:i], '\n') + 1
		line, _, _ := strings.Cut(text[start:], "\n")
		if line != "" && line[0] != ' ' && line[0] != '\t' && line[0] != '-' {
			if k := strings.IndexByte(line, ':'); k > 0 {
				return line[:k]
			}
		}
		if start == 0 {
			return "header"
		}
		i = start - 1
	}
}

// checkSecrets refuses a memory that holds a secret: one error per
// secret, each naming the file, the field, the line and the kind, never
// the secret. When the name itself holds one, the message names the
// folder instead of the file.
func (v *Vault) checkSecrets(m *memory.Memory) error {
	err := Secrets(m)
	if err == nil {
		return nil
	}
	problems := memory.Problems(err)
	path := v.rel(m.Name + ".md")
	for _, p := range problems {
		if se := (*redact.SecretError)(nil); errors.As(p, &se) && se.Field == "name" {
			path = v.display
		}
	}
	errs := make([]error, len(problems))
	for i, p := range problems {
		errs[i] = &FileError{Path: path, Err: p}
	}
	return fmt.Errorf("vault: %w", errors.Join(errs...))
}

// A Secret is a secret found in a file by [ScanSecrets]: where it is and
// its kind, never the secret.
type Secret struct {
	Path   string `json:"path"`   // the folder as given to ScanSecrets, joined with the file's path in it
	Line   int    `json:"line"`   // 1-based
	Column int    `json:"column"` // 1-based, in bytes
	Kind   string `json:"kind"`   // as in [redact.Finding.Kind]
}

// maxScanSize bounds the files [ScanSecrets] reads: more than a reader of
// memories opens, since a file too large to be read as one may still hold
// a secret a person pasted.
const maxScanSize = 8 * memory.MaxFileSize

// ScanSecrets returns the secrets in the text files under dir (memory
// files, MEMORY.md, anything else a person or an agent left there) in
// path order, and a problem for each file it could not judge. Hidden
// files and folders (.git, temp files), symlinks and binary files are
// passed over. Paths start with shown, the folder as messages name it.
func ScanSecrets(dir, shown string) ([]Secret, []error) {
	var out []Secret
	var problems []error
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			problems = append(problems, err)
			return nil
		}
		if path != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.Join(shown, rel)
		data, err := readScanned(path)
		if err != nil {
			problems = append(problems, &FileError{Path: rel, Err: err})
			return nil
		}
		for _, f := range redact.Find(string(data)) {
			out = append(out, Secret{Path: rel, Line: f.Line, Column: f.Column, Kind: f.Kind})
		}
		return nil
	})
	if err != nil {
		problems = append(problems, err)
	}
	return out, problems
}

// readScanned reads a file for [ScanSecrets], or nil for a binary one.
func readScanned(path string) ([]byte, error) {
	data, err := safefile.Read(path, maxScanSize)
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("larger than %d MiB: not scanned", maxScanSize>>20)
	}
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0 {
		return nil, nil // binary: images and the like hold no text to judge
	}
	return data, nil
}
