package envtrust

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
)

// A repo asks git which files of one repository it tracks.
type repo struct {
	root string   // the work tree's root, symbolic links resolved
	env  []string // git's environment
}

// An entry is a file of the index.
type entry struct {
	blob, stage string
}

// gitEnv is the environment git runs in: the process's, without the
// variables in drop (the ones a project file proposes: they could point
// git at a configuration of the repository's, whose filters git would
// run) and without GIT_*, which would redirect the question. HOME, when
// dropped, is the one the user database names.
func gitEnv(drop map[string]bool) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if drop[k] || strings.HasPrefix(k, "GIT_") {
			continue
		}
		env = append(env, kv)
	}
	if drop["HOME"] {
		if u, err := user.Current(); err == nil {
			env = append(env, "HOME="+u.HomeDir)
		}
	}
	return append(env, "GIT_OPTIONAL_LOCKS=0", "GIT_LITERAL_PATHSPECS=1", "GIT_TERMINAL_PROMPT=0")
}

func (r repo) git(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.root}, args...)...)
	cmd.Env = r.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// A file is a file of the work tree that sets variables.
type file struct {
	abs  string // as the agent opens it
	rel  string // abs relative to the root, slash-separated: how mnemo names it
	data []byte // its content in the work tree
}

// texts returns, for each file, what of it is the repository's: its
// content when git tracks it unchanged (or the repository tracks a link
// on its path), the index's copy (also with $Id$ expanded, as git's ident
// attribute writes it) when the user changed it; no entry when the
// repository does not track it. When git cannot answer, every file is the
// repository's as it is, and the error says why.
func (r repo) texts(ctx context.Context, files []file) (map[string][][]byte, error) {
	out := make(map[string][][]byte)
	failClosed := func(err error) (map[string][][]byte, error) {
		for _, f := range files {
			out[f.abs] = [][]byte{f.data}
		}
		return out, err
	}
	type query struct {
		f     file
		real  string   // the file's path relative to the root, links resolved; "" outside the root
		links []string // the prefixes of its path that are links, relative to the root
	}
	var qs []query
	var paths []string
	for _, f := range files {
		q := query{f: f}
		parts := strings.Split(f.rel, "/")
		for i := range parts {
			prefix := strings.Join(parts[:i+1], "/")
			if fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(prefix))); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				q.links = append(q.links, prefix)
			}
		}
		if real, err := filepath.EvalSymlinks(f.abs); err == nil {
			if rel, err := filepath.Rel(r.root, real); err == nil && filepath.IsLocal(rel) {
				q.real = filepath.ToSlash(rel)
			}
		}
		qs = append(qs, q)
		paths = append(paths, q.links...)
		if q.real != "" {
			paths = append(paths, q.real)
		}
	}
	index, changed, err := r.lsFiles(ctx, paths)
	if err != nil {
		return failClosed(err)
	}
	for _, q := range qs {
		for _, l := range q.links {
			if _, ok := index[l]; ok { // the repository put the link there
				out[q.f.abs] = [][]byte{q.f.data}
			}
		}
		e, ok := index[q.real]
		switch {
		case !ok || out[q.f.abs] != nil:
		case e.stage != "0" || !changed[q.real]: // unchanged, or a conflict: what is there came with a merge
			out[q.f.abs] = [][]byte{q.f.data}
		default:
			blob, err := r.git(ctx, "cat-file", "blob", e.blob)
			if err != nil {
				return failClosed(err)
			}
			out[q.f.abs] = [][]byte{blob, bytes.ReplaceAll(blob, []byte("$Id$"), []byte("$Id: "+e.blob+" $"))}
		}
	}
	return out, nil
}

// lsFiles returns the index's entries for paths, by path, and which of
// them differ in the work tree (as git compares them: through the user's
// filters), in one call.
func (r repo) lsFiles(ctx context.Context, paths []string) (map[string]entry, map[string]bool, error) {
	index := make(map[string]entry)
	changed := make(map[string]bool)
	if len(paths) == 0 {
		return index, changed, nil
	}
	out, err := r.git(ctx, append([]string{"ls-files", "--stage", "-t", "--cached", "--modified", "-z", "--"}, paths...)...)
	if err != nil {
		return nil, nil, err
	}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta) // tag, mode, blob, stage
		if len(f) != 4 {
			return nil, nil, errors.New("git ls-files: unexpected output")
		}
		if f[0] == "C" {
			changed[path] = true
		} else if _, ok := index[path]; !ok { // of a conflict, stage 1 comes first
			index[path] = entry{blob: f[2], stage: f[3]}
		}
	}
	return index, changed, nil
}
