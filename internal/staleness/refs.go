package staleness

import (
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// Refs are what a memory's body names in the code: file paths and
// identifiers written in backticks, and plain paths.
type Refs struct {
	Paths       []string // relative to the repository root, slash-separated
	Identifiers []string
}

var (
	spanRE  = lazyregexp.New("`([^`\n]{2,120})`")
	pathRE  = lazyregexp.New(`(?:^|[\s(\[:"'])((?:\.{0,2}/)?(?:[\w.-]+/)+[\w.-]+\.[A-Za-z0-9]{1,8})(?:$|[\s)\],.:;"'!?])`)
	identRE = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?$`)
)

// commonWords are backticked words too general to check in the code.
var commonWords = map[string]bool{"true": true, "false": true, "nil": true, "null": true, "none": true, "main": true, "test": true, "make": true}

// FindRefs returns the paths and identifiers a body names. A backticked
// span is a path when it has a slash or a file extension, an identifier
// when it is one (Go, JS, Python style, dotted allowed) of four characters
// or more; commands and prose in backticks are neither.
func FindRefs(body string) Refs {
	var r Refs
	seenP, seenI := map[string]bool{}, map[string]bool{}
	addPath := func(p string) {
		p = strings.TrimLeft(strings.TrimPrefix(p, "./"), "/") // "//x" is no more absolute than "/x"
		if p != "" && !strings.Contains(p, "://") && !seenP[p] && !strings.HasPrefix(p, "../") {
			seenP[p] = true
			r.Paths = append(r.Paths, p)
		}
	}
	for _, m := range spanRE.FindAllStringSubmatch(body, -1) {
		s := strings.TrimSpace(m[1])
		switch {
		case strings.ContainsAny(s, " \t"):
			// a command or a phrase
		case strings.Contains(s, "/") || looksLikeFile(s):
			if !strings.Contains(s, "://") {
				addPath(strings.TrimSuffix(s, "/"))
			}
		case identRE.MatchString(s) && len(s) >= 4 && !commonWords[strings.ToLower(s)]:
			id := strings.TrimSuffix(s, "()")
			if i := strings.LastIndexByte(id, '.'); i >= 0 {
				id = id[i+1:] // pkg.Func: the name is what git grep can find
			}
			if len(id) >= 4 && !seenI[id] {
				seenI[id] = true
				r.Identifiers = append(r.Identifiers, id)
			}
		}
	}
	for _, m := range pathRE.FindAllStringSubmatch(body, -1) {
		if !strings.Contains(m[1], "://") {
			addPath(m[1])
		}
	}
	return r
}

// looksLikeFile reports whether a backticked word is a file name rather
// than a dotted identifier, by its extension: main.go is a file, http.Get
// is not.
func looksLikeFile(s string) bool {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(s), "."))
	return ext != "" && ext != s && strings.Contains(" go ts tsx js jsx mjs cjs py rb rs java kt kts scala swift c h cc cpp hpp cs php "+
		"html css scss sass less vue svelte md mdx txt json jsonl yaml yml toml ini cfg conf env sql sh bash zsh fish ps1 "+
		"mod sum lock proto graphql gql tf hcl xml csv dockerfile gradle cmake mk ", " "+ext+" ")
}

// ExistingPaths returns the paths that name regular files inside root
// (through no symlink out of it): those a new memory can be anchored to.
func ExistingPaths(root string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if fi, err := statIn(root, p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

// BodyFiles returns, as absolute paths, the files under root that a
// memory's body names: what a memory is anchored to beside its explicit
// files.
func BodyFiles(root, body string) []string {
	var out []string
	for _, p := range ExistingPaths(root, FindRefs(body).Paths) {
		out = append(out, filepath.Join(root, filepath.FromSlash(p)))
	}
	return out
}
