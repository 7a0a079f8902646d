package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// A Factory gives commands their world. Costly parts are opened on first
// use and then cached; --help and flag errors open nothing.
type Factory struct {
	IO    *IOStreams
	Now   func() time.Time
	Env   project.Env
	Getwd func() (string, error)
	Dir   string // --project: where to find the project; empty means the working folder

	// Project returns the project around Dir, found on first call.
	Project func() (*project.Project, error)

	// offline says that variables the repository set, which steer
	// mnemo, were removed from the environment (distrustAgentShell): the
	// user's own values are lost, so sessions are extracted offline.
	offline bool

	mu     sync.Mutex // guards following
	vaults map[bool]*vault.Vault
	model  *embed.Lazy
}

// NewFactory returns a factory over the process's environment.
func NewFactory(streams *IOStreams) *Factory {
	home, _ := os.UserHomeDir()
	f := &Factory{
		IO:    streams,
		Now:   time.Now,
		Env:   project.Env{Getenv: os.Getenv, Home: home},
		Getwd: os.Getwd,
	}
	f.Project = sync.OnceValues(f.findProject)
	// MNEMO_NOW fixes the clock (RFC 3339), so that scripts and tests that
	// write dates are reproducible.
	if now, err := time.Parse(time.RFC3339, os.Getenv("MNEMO_NOW")); err == nil {
		f.Now = func() time.Time { return now }
	}
	return f
}

func (f *Factory) findProject() (*project.Project, error) {
	dir := f.Dir
	if dir == "" {
		wd, err := f.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return project.Find(ctx, dir, f.Env)
}

// Vault opens the project vault, or with user set the user vault, which it
// creates on first use. A missing project vault says to run mnemo init.
func (f *Factory) Vault(user bool) (*vault.Vault, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if v := f.vaults[user]; v != nil {
		return v, nil
	}
	var dir, state string
	if user {
		dir, state = f.Env.UserVaultDir(), f.Env.UserStateDir()
		if _, err := vault.Create(dir); err != nil {
			return nil, err
		}
	} else {
		p, err := f.Project()
		if err != nil {
			return nil, err
		}
		if dir, err = p.Vault(); err != nil {
			return nil, vaultRefused(err)
		}
		state = p.StateDir()
	}
	v, err := vault.Open(dir, vault.LockPath(state))
	if errors.Is(err, vault.ErrNoVault) {
		return nil, withHint(fmt.Errorf("no vault at %s", dir), "run 'mnemo init' to create one")
	}
	if err != nil {
		return nil, err
	}
	if f.vaults == nil {
		f.vaults = make(map[bool]*vault.Vault)
	}
	f.vaults[user] = v
	return v, nil
}

// vaultRefused adds to a refusal of the project vault what to do instead.
func vaultRefused(err error) error {
	var ve *project.VaultError
	if errors.As(err, &ve) {
		return withHint(err, ve.Hint())
	}
	return err
}

// StateDir returns the state folder of the project vault, or of the user vault.
func (f *Factory) StateDir(user bool) (string, error) {
	if user {
		return f.Env.UserStateDir(), nil
	}
	p, err := f.Project()
	if err != nil {
		return "", err
	}
	return p.StateDir(), nil
}

// Log returns a logger that appends to the state log of the vault, for what
// a user may want to find later (why a memory was removed). Logging never
// fails a command: without a log file it discards.
func (f *Factory) Log(user bool) *slog.Logger {
	dir, err := f.StateDir(user)
	var w io.Writer = io.Discard
	if err == nil && os.MkdirAll(dir, 0o755) == nil {
		if lf, err := os.OpenFile(filepath.Join(dir, "log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			w = lf // closed when the process exits; a CLI run logs a few lines
		}
	}
	return slog.New(slog.NewTextHandler(w, nil))
}
