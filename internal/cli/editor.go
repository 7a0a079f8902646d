package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/redact"
)

// runEditor opens text in $EDITOR (or $VISUAL) and returns what was saved.
// The editor command may carry arguments ("code --wait"), as with git.
func runEditor(ctx context.Context, f *Factory, name string, text []byte) ([]byte, error) {
	editor := f.Env.Getenv("VISUAL")
	if editor == "" {
		editor = f.Env.Getenv("EDITOR")
	}
	if editor == "" {
		return nil, withHint(errNoEditor, "set $EDITOR, or pass the body as arguments or '-' for stdin")
	}
	tmp, err := os.CreateTemp("", "mnemo-"+name+"-*.md")
	if err != nil {
		return nil, fmt.Errorf("editor: %w", err)
	}
	path := tmp.Name()
	defer os.Remove(path)
	_, err = tmp.Write(text)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("editor: %w", err)
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", editor+` "$1"`, "sh", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = f.IO.In, f.IO.ErrOut, f.IO.ErrOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("editor %s: %w", editor, err)
	}
	out, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("editor: %w", err)
	}
	return out, nil
}

// keepEdit saves an edit that cannot be used where the user can get it
// back, and returns an error saying why it was refused and where it is.
// Secrets are never kept: the copy has them replaced by [REDACTED:kind].
func keepEdit(f *Factory, text []byte, problem error) error {
	dir, err := f.StateDir(false)
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "rejected-edits")
	kept, note := redact.String(string(text)), ""
	if kept != string(text) {
		note = ", secrets replaced by [REDACTED:kind]"
	}
	if err := os.MkdirAll(dir, 0o755); err == nil {
		if tmp, err := os.CreateTemp(dir, "edit-"+f.Now().UTC().Format("20060102T150405")+"-*.md"); err == nil {
			_, werr := tmp.WriteString(kept)
			if cerr := tmp.Close(); werr == nil && cerr == nil {
				return fmt.Errorf("%s\nyour text is kept in %s%s; nothing was changed", indentProblems(problem), tmp.Name(), note)
			}
		}
	}
	return fmt.Errorf("%s\nnothing was changed", indentProblems(problem))
}

// indentProblems lays out several joined problems one per line.
func indentProblems(err error) string {
	var lines []string
	for _, e := range unwrapAll(err) {
		lines = append(lines, e.Error())
	}
	return strings.Join(lines, "\n")
}

func unwrapAll(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	var inner interface{ Unwrap() []error }
	if errors.As(err, &inner) {
		return inner.Unwrap()
	}
	return []error{err}
}
