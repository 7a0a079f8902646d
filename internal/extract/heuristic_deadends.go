package extract

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// deadEnds returns the shell commands that failed at least twice, were
// never made to work, and were given up for a different command of the
// same family that worked in the foreground. A command that failed and later succeeded is
// ordinary debugging, not a dead end; so are failures of the file tools,
// which are about the assistant's own protocol. A test, build or lint
// command that fails to the end is work left open, not advice to stop
// running it ("npm run build" four times, then "npx next dev", is a broken
// build): it is a TODO.
func (h *Heuristic) deadEnds(d *transcript.Digest, ps paths) []Candidate {
	var out []Candidate
	for _, f := range d.Failures() {
		c := f.Call
		if !shell(c.Name) || f.FixedBy != nil || trivialCommand(c.Arg) {
			continue
		}
		if c.Check {
			out = append(out, brokenCheck(f, ps, h))
			continue
		}
		if f.Count < 2 {
			continue
		}
		alt := alternative(d, c)
		if alt == nil {
			continue
		}
		out = append(out, deadEnd(f, alt, ps, h))
	}
	return out
}

func shell(tool string) bool { return tool == "Bash" || tool == "PowerShell" }

// alternative finds the first successful shell command after the last
// failure of c's kind, in c's turn or the prompt turn after it, that
// differs from c but belongs to its family.
func alternative(d *transcript.Digest, c *transcript.ToolCall) *transcript.ToolCall {
	sig := signature(c.Arg)
	ti := slices.IndexFunc(d.Turns, func(t *transcript.Turn) bool {
		return slices.ContainsFunc(t.Items, func(it transcript.Item) bool { return it.Tool == c })
	})
	if ti < 0 {
		return nil
	}
	turns := d.Turns[ti : ti+1]
	if d.Turns[ti].Kind != transcript.TurnAgent && ti+1 < len(d.Turns) && d.Turns[ti+1].Kind == transcript.TurnPrompt {
		turns = d.Turns[ti : ti+2]
	}
	seen := false
	var found *transcript.ToolCall
	for _, t := range turns {
		for _, it := range t.Items {
			o := it.Tool
			if o == c {
				seen = true
				continue
			}
			// A command started in the background only started: its
			// success proves nothing.
			if !seen || o == nil || !shell(o.Name) || o.Interrupted || o.Background {
				continue
			}
			if slices.Equal(signature(o.Arg), sig) {
				found = nil // tried again after the alternative: not abandoned yet
				continue
			}
			if found == nil && o.Outcome == transcript.OutcomeOK && !trivialCommand(o.Arg) && sameFamily(c.Arg, o.Arg) {
				found = o
			}
		}
	}
	return found
}

func deadEnd(f *transcript.Failure, alt *transcript.ToolCall, ps paths, h *Heuristic) Candidate {
	bad, good := shortCommand(f.Call.Arg, 60), shortCommand(alt.Arg, 60)
	best, msg := errorLines(f.Call.Error)
	n := times(f.Count)
	desc := "Use `" + good + "`, not `" + bad + "`"
	if best != "" {
		desc += " (" + cutRunes(best, 60) + ")"
	}
	fact := "`" + f.Call.Arg + "` fails here"
	if msg != "" {
		fact += " with: " + msg
	}
	fact += " (" + n + " in turn " + strconv.Itoa(f.Call.Turn) + "); `" + alt.Arg + "` works instead."
	conf := confWeak
	if f.Count >= 3 {
		conf += 0.05
	}
	var files []string
	for _, p := range append(h.files(f.Call.Arg, ps), h.files(alt.Arg, ps)...) {
		if !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	return Candidate{
		Description:    describe(desc),
		Fact:           cutRunes(fact, maxFactLen),
		Type:           memory.TypeProject,
		Category:       CategoryDeadEnd,
		Files:          files,
		Confidence:     conf,
		Why:            "`" + bad + "` failed " + n + " in turn " + strconv.Itoa(f.Call.Turn) + " and was abandoned",
		FromToolOutput: true, // the error text is the command's output
	}
}

// brokenCheck is the TODO a check command that fails to the end of the
// session leaves.
func brokenCheck(f *transcript.Failure, ps paths, h *Heuristic) Candidate {
	cmd := shortCommand(f.Call.Arg, 60)
	best, msg := errorLines(f.Call.Error)
	desc := "`" + cmd + "` fails"
	if best != "" {
		desc += ": " + cutRunes(best, 80)
	}
	fact := "`" + f.Call.Arg + "` fails"
	if msg != "" {
		fact += " with: " + msg
	}
	fact += ". It failed " + times(f.Count) + " from turn " + strconv.Itoa(f.Call.Turn) + " and was not fixed in the session."
	return Candidate{
		Description:    describe(desc),
		Fact:           cutRunes(fact, maxFactLen),
		Type:           memory.TypeProject,
		Category:       CategoryTodo,
		Files:          h.files(f.Call.Arg, ps),
		Confidence:     confWeak,
		Why:            "`" + cmd + "` failed " + times(f.Count) + " and the session ended without a fix",
		FromToolOutput: true, // the error text is the command's output
	}
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return strconv.Itoa(n) + " times"
}

// signature reduces a command to its program and up to two words that
// are not flags or paths, after any cd, export or environment assignment:
// "cd web && npm run build --prod" is [npm run build].
func signature(cmd string) []string {
	words := mainWords(cmd)
	if len(words) == 0 {
		return nil
	}
	sig := []string{words[0]}
	for _, w := range words[1:] {
		if len(sig) == 3 {
			break
		}
		if !strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "/.=$<>&*") {
			sig = append(sig, w)
		}
	}
	return sig
}

// mainWords returns the words of the first part of cmd that does
// something: not cd, export or an assignment; quotes trimmed.
func mainWords(cmd string) []string {
	cmd, _, _ = strings.Cut(cmd, "\n")
	for _, seg := range strings.FieldsFunc(cmd, func(r rune) bool { return r == '&' || r == ';' || r == '|' }) {
		fields := strings.Fields(seg)
		for len(fields) > 0 && strings.Contains(fields[0], "=") {
			fields = fields[1:]
		}
		if len(fields) == 0 {
			continue
		}
		prog := path.Base(strings.Trim(fields[0], `"'`))
		switch prog {
		case "cd", "export", "source", ".", "set", "pushd", "popd", "sleep", "yes", "echo", "sudo", "time", "env":
			continue
		}
		out := []string{prog}
		for _, f := range fields[1:] {
			out = append(out, strings.Trim(f, `"'`))
		}
		return out
	}
	return nil
}

// trivialCommand reports whether cmd only looks around: its failure says
// nothing worth remembering and its success is no alternative.
func trivialCommand(cmd string) bool {
	words := mainWords(cmd)
	if len(words) == 0 {
		return true
	}
	switch words[0] {
	case "ls", "cat", "head", "tail", "grep", "rg", "find", "pwd", "which", "type", "file", "stat", "tree", "wc",
		"less", "more", "printenv", "whoami", "date", "true", "false", "ps", "kill", "pkill", "mkdir", "touch",
		"cp", "mv", "rm", "chmod", "ln", "du", "df", "lsof", "curl", "wget", "open", "clear", "history", "test", "[":
		return true
	case "git":
		return len(words) < 2 || slices.Contains([]string{"status", "log", "diff", "show", "branch", "add", "commit", "stash", "checkout", "switch", "fetch", "remote", "rev-parse"}, words[1])
	}
	return false
}

// families group programs that do one job, so that one can stand in for
// another.
func family(prog string) string {
	for fam, progs := range map[string][]string{
		"node":   {"npm", "npx", "pnpm", "yarn", "bun", "bunx", "node", "deno", "tsc", "next", "vite", "jest", "vitest"},
		"python": {"pip", "pip3", "python", "python3", "uv", "uvx", "poetry", "pipenv", "pytest", "conda"},
		"docker": {"docker", "docker-compose", "podman", "podman-compose", "nerdctl"},
		"ruby":   {"bundle", "bundler", "rake", "ruby", "rails", "gem", "rspec"},
		"jvm":    {"gradle", "gradlew", "./gradlew", "mvn", "mvnw", "java", "sbt"},
		"beam":   {"mix", "elixir", "iex", "erl", "rebar3"},
		"rust":   {"cargo", "rustc", "rustup"},
		"make":   {"make", "cmake", "ninja", "just", "task"},
		"k8s":    {"kubectl", "helm", "kustomize", "k9s", "minikube", "kind"},
	} {
		if slices.Contains(progs, prog) {
			return fam
		}
	}
	return prog
}

// sameFamily reports whether b can stand in for a: the same program or
// family, or a shared subcommand or argument word.
func sameFamily(a, b string) bool {
	wa, wb := mainWords(a), mainWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return false
	}
	if family(wa[0]) == family(wb[0]) {
		return true
	}
	for _, w := range wa[1:] {
		if len(w) > 3 && !strings.HasPrefix(w, "-") && slices.Contains(wb[1:], w) {
			return true
		}
	}
	return false
}

// shortCommand shows a command without its cd prefix, cut to n runes.
func shortCommand(cmd string, n int) string {
	cmd, _, _ = strings.Cut(cmd, "\n")
	for {
		f := strings.Fields(cmd)
		if len(f) >= 3 && f[0] == "cd" && f[2] == "&&" {
			cmd = strings.Join(f[3:], " ")
			continue
		}
		break
	}
	return cutRunes(strings.TrimSpace(cmd), n)
}

// errorLines picks the lines of an error excerpt that name the error,
// skipping warnings and notices, best first: a typed error ("TypeError:
// …"), then "error:", then other failure words. It returns the best line
// and at most two lines joined.
func errorLines(excerpt string) (best, both string) {
	type scored struct {
		line  string
		score int
	}
	var lines []scored
	for line := range strings.SplitSeq(excerpt, "\n") {
		line = shellPrefix(strings.Trim(strings.TrimSpace(line), "[]> "))
		l := strings.ToLower(line)
		if line == "" || strings.HasPrefix(l, "npm warn") || strings.HasPrefix(l, "warning") || strings.HasPrefix(l, "npm notice") || strings.HasPrefix(l, "... ") {
			continue
		}
		score := 0
		switch {
		case typedError(line) || fileLine.MatchString(line):
			score = 3
		case strings.Contains(l, "error:") || strings.Contains(l, "not found") || strings.Contains(l, "no such") ||
			strings.Contains(l, "cannot") || strings.Contains(l, "denied"):
			score = 2
		case strings.Contains(l, "error") || strings.Contains(l, "failed") || strings.Contains(l, "invalid") || strings.Contains(l, "unknown"):
			score = 1
		}
		lines = append(lines, scored{line, score})
	}
	if len(lines) == 0 {
		return "", ""
	}
	slices.SortStableFunc(lines, func(a, b scored) int { return b.score - a.score })
	best = cutRunes(lines[0].line, 160)
	if len(lines) > 1 && lines[1].score > 0 {
		return best, cutRunes(lines[0].line+"; "+lines[1].line, 240)
	}
	return best, best
}

// fileLine matches a line that names a place in a file, "retry_test.go:12:"
// or "src/a.ts(6,33):": a compiler's or a test's own words.
var fileLine = lazyregexp.New(`[\w.-]+\.[a-z]{1,5}(?::\d+|\(\d+,\d+\)):`)

// typedError reports whether line names an error type: "TypeError: …",
// "ModuleNotFoundError: …", "java.io.IOException: …".
func typedError(line string) bool {
	head, _, ok := strings.Cut(line, ":")
	if !ok || strings.ContainsAny(head, " \t") {
		return false
	}
	return strings.HasSuffix(head, "Error") || strings.HasSuffix(head, "Exception")
}

// shellPrefix removes what a shell puts before its own error messages:
// "/bin/bash: line 1: ", "sh: 1: ", "(eval):1: ", "zsh:1: ".
func shellPrefix(line string) string {
	for _, sh := range []string{"/bin/bash:", "/usr/bin/bash:", "bash:", "/bin/sh:", "sh:", "zsh:", "(eval):"} {
		rest, ok := strings.CutPrefix(line, sh)
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if after, ok := strings.CutPrefix(rest, "line "); ok {
			rest = after
		}
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i > 0 && i < len(rest) && rest[i] == ':' {
			rest = rest[i+1:]
		}
		return strings.TrimSpace(rest)
	}
	return line
}
