package cli

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"strings"
	"sync"
	"time"

	"github.com/mnemo-dev/mnemo/internal/envtrust"
	"github.com/mnemo-dev/mnemo/internal/project"
)

// repoEnvTimeout bounds the question to git of which settings files a
// repository tracks; past it, a file counts as tracked.
const repoEnvTimeout = 500 * time.Millisecond

// distrustRepo removes from the environment the variables whose values
// files the repository tracks in git put there ([envtrust.Check]), for a
// process an agent starts (a hook, the MCP server): the agent built its
// environment from the project's settings, and a repository anyone can
// clone must not choose where mnemo sends a session, with whose key, or
// where mnemo keeps its state. They go from the process itself, not only
// from f.Env, so that nothing mnemo starts (git, the worker, the claude
// child) inherits them; HOME, when it goes, comes back from the user
// database. dirs are the folders the agent works in, besides the working
// folder; shell says the process is a command the agent's shell tool ran
// ([envtrust.Options]). It returns what it removed; the error, to log,
// says what could not be read (a file git could not answer for counts as
// tracked).
func (f *Factory) distrustRepo(ctx context.Context, agentName string, shell bool, dirs ...string) ([]envtrust.Finding, error) {
	ctx, cancel := context.WithTimeout(ctx, repoEnvTimeout)
	defer cancel()
	if wd, err := f.Getwd(); err == nil {
		dirs = append(dirs, wd)
	}
	found, err := envtrust.Check(ctx, envtrust.Options{Agent: agentName, Shell: shell, Dirs: dirs, Getenv: f.Env.Getenv, Home: f.Env.Home})
	if len(found) == 0 {
		return nil, err
	}
	drop := make(map[string]bool)
	for _, fd := range found {
		drop[fd.Key] = true
		os.Unsetenv(fd.Key)
	}
	home := f.Env.Home
	if drop["HOME"] {
		home = ""
		if u, err := user.Current(); err == nil {
			home = u.HomeDir
			os.Setenv("HOME", home)
		}
	}
	getenv := f.Env.Getenv
	f.Env = project.Env{Home: home, Getenv: func(k string) string {
		if drop[k] {
			return ""
		}
		return getenv(k)
	}}
	f.Project = sync.OnceValues(f.findProject)
	return found, err
}

// distrustAgentShell is distrustRepo for a command an agent's shell tool
// ran (CLAUDECODE, CODEX_THREAD_ID or GEMINI_CLI in its environment, which
// Claude Code, Codex and Gemini CLI set there): the agent gave it the
// environment it built from the project's files (Codex: a trusted
// project's shell_environment_policy), and a repository's instructions
// can ask the agent to run mnemo ingest. A command run from
// the user's own shell has nothing of the repository's to remove. It
// reports whether it removed a variable: the user's own value of it is
// lost, and sessions are then extracted offline.
func (f *Factory) distrustAgentShell(ctx context.Context) bool {
	var agentName string
	switch {
	case f.Env.Getenv("CLAUDECODE") != "":
		agentName = "claude-code"
	case f.Env.Getenv("CODEX_THREAD_ID") != "":
		agentName = "codex"
	case f.Env.Getenv("GEMINI_CLI") != "":
		agentName = "gemini"
	default:
		return false
	}
	ignored, err := f.distrustRepo(ctx, agentName, true, f.Dir, f.Env.Getenv("CLAUDE_PROJECT_DIR"))
	log := f.Log(false)
	if err != nil {
		log.Warn("repository settings: ask git which files it tracks", "err", err)
	}
	if len(ignored) == 0 {
		return false
	}
	fmt.Fprintln(f.IO.ErrOut, "mnemo: ignored what files the repository tracks set: "+envtrust.List(ignored))
	log.Warn("repository settings ignored", "vars", envtrust.List(ignored))
	return true
}

// repoEnvCheck reports the variables that steer mnemo which files the
// repository tracks set for the agents' hooks and MCP servers: mnemo
// ignores them when it finds them with the repository's values, and
// extracts the sessions they reach offline. Of those, it names the ones
// doctor's own environment (the person's shell) holds with the
// repository's value: a hook cannot tell that value of theirs from the
// repository's, and the person should know it is lost there.
func repoEnvCheck(ctx context.Context, f *Factory, p *project.Project) check {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	dirs := []string{p.Root}
	if wd, err := f.Getwd(); err == nil {
		dirs = append(dirs, wd)
	}
	o := envtrust.Options{Dirs: dirs, Getenv: f.Env.Getenv, Home: f.Env.Home}
	found, err := envtrust.Declared(ctx, o)
	if err != nil {
		return check{Name: "repo env", Status: "warn", Detail: "could not tell which settings files git tracks (they count as tracked): " + err.Error()}
	}
	if len(found) == 0 {
		return check{Name: "repo env", Status: "ok", Detail: "no file the repository tracks sets a variable that steers mnemo"}
	}
	c := check{Name: "repo env", Status: "warn",
		Detail: "set by files the repository tracks: " + envtrust.List(found) + "; mnemo's hooks ignore them and extract the sessions they reach offline",
		Fix:    "to use a value of your own, set it in an untracked .claude/settings.local.json; to accept the repository's, set the same in your own settings (~/.claude/settings.json, ~/.codex/config.toml, ~/.gemini/settings.json)"}
	if same, _ := envtrust.Check(ctx, o); len(same) > 0 {
		keys := make([]string, len(same))
		for i, fd := range same {
			keys[i] = fd.Key
		}
		c.Detail += "; your environment holds the same value for " + strings.Join(keys, ", ") + ": the hooks cannot tell yours from the repository's"
		c.Fix = "to keep your own value, set the same in ~/.claude/settings.json (~/.codex/config.toml, ~/.gemini/settings.json); " + c.Fix
	}
	return c
}
