package transcript

import (
	"path"
	"slices"
	"strings"
)

// A stage is one simple command of a shell command line and the operator
// that follows it: "|", "||", "&&", ";" or "" at the end.
type stage struct {
	words []string // its words, environment assignments left out, quotes kept off
	sep   string
}

// prog returns the stage's program name, "" for an empty stage.
func (s stage) prog() string {
	if len(s.words) == 0 {
		return ""
	}
	return path.Base(s.words[0])
}

// shellStages splits the first line of a command at its operators,
// outside quotes. It reads no more of the shell than that: enough to
// tell which command's exit status the whole line returns.
func shellStages(cmd string) []stage {
	cmd, _, _ = strings.Cut(cmd, "\n")
	var out []stage
	var word strings.Builder
	var cur stage
	endWord := func() {
		if word.Len() == 0 {
			return
		}
		w := word.String()
		word.Reset()
		if len(cur.words) == 0 && strings.Contains(w, "=") && !strings.HasPrefix(w, "=") {
			return // an environment assignment before the program
		}
		cur.words = append(cur.words, w)
	}
	endStage := func(sep string) {
		endWord()
		cur.sep = sep
		out = append(out, cur)
		cur = stage{}
	}
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				word.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\' && i+1 < len(cmd):
			i++
			word.WriteByte(cmd[i])
		case c == ' ' || c == '\t':
			endWord()
		case c == ';':
			endStage(";")
		case c == '&' && i+1 < len(cmd) && cmd[i+1] == '&':
			endStage("&&")
			i++
		case c == '|' && i+1 < len(cmd) && cmd[i+1] == '|':
			endStage("||")
			i++
		case c == '|':
			endStage("|")
		case c == '>' || c == '<':
			endWord()
			for i+1 < len(cmd) && (cmd[i+1] == '&' || cmd[i+1] == '>' || cmd[i+1] >= '0' && cmd[i+1] <= '9') {
				i++ // a redirection such as 2>&1 or >> is not a word of the command
			}
		default:
			word.WriteByte(c)
		}
	}
	endStage("")
	return slices.DeleteFunc(out, func(s stage) bool { return len(s.words) == 0 && s.sep == "" })
}

// checkWord reports whether w names a command that checks or records the
// code: a test run, a build, a linter, a type checker, a commit. The
// output of such a command is evidence even when it succeeds.
func checkWord(w string) bool {
	switch w {
	case "test", "tests", "build", "lint", "vet", "check", "typecheck", "compile", "commit", "push",
		"audit", "verify", "ci",
		"tsc", "pytest", "jest", "vitest", "mocha", "rspec", "phpunit",
		"eslint", "ruff", "mypy", "pyright", "flake8", "pylint", "tox",
		"clippy", "credo", "dialyzer", "golangci-lint", "staticcheck",
		"make", "ninja", "gradle", "gradlew", "mvn", "ctest":
		return true
	}
	return false
}

// A commandCheck is what the digest knows of a shell command line.
type commandCheck struct {
	check    bool   // it runs a test, build, lint or commit command
	statusOf string // when the line's exit status is another program's (a pipe, ||, ;): that program
}

// checkCommand finds the first test, build, lint or commit command of a
// command line and whether the line's exit status is its own: after a
// pipe (without pipefail), an || or a ;, the status is that of the last
// program, and a failure shows only in the output.
func checkCommand(cmd string) commandCheck {
	stages := shellStages(cmd)
	at := slices.IndexFunc(stages, func(s stage) bool {
		for _, w := range s.words[:min(len(s.words), 4)] {
			if checkWord(path.Base(w)) {
				return true
			}
		}
		return false
	})
	if at < 0 {
		return commandCheck{}
	}
	c := commandCheck{check: true}
	pipefail := strings.Contains(cmd, "pipefail")
	for _, s := range stages[at : len(stages)-1] {
		if s.sep == "||" || s.sep == ";" || (s.sep == "|" && !pipefail) {
			c.statusOf = stages[len(stages)-1].prog()
			break
		}
	}
	return c
}
