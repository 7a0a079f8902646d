package transcript

import "time"

// Meta describes a session as its transcript lines tell it.
type Meta struct {
	SessionID string
	CWD       string // the working directory the session started in
	GitBranch string
	Agent     string // the agent that wrote the session: "codex", or "" for Claude Code
	Version   string // the agent's version
	Start     time.Time
	End       time.Time // the latest timestamp seen
}

// metaTracker gathers Meta from lines in file order. Identity fields take the
// first value a main-chain line gives; a file with only side-chain lines
// (a sub-agent's) falls back to the first side-chain value.
type metaTracker struct {
	main, side Meta
}

func (t *metaTracker) observe(session, cwd, branch, version string, sidechain bool) {
	m := &t.main
	if sidechain {
		m = &t.side
	}
	setFirst(&m.SessionID, session)
	setFirst(&m.CWD, cwd)
	setFirst(&m.GitBranch, branch)
	setFirst(&m.Version, version)
}

// observeTime widens the time span, which covers every line, main chain or not.
func (t *metaTracker) observeTime(ts time.Time) {
	if ts.IsZero() {
		return
	}
	for _, mm := range []*Meta{&t.main, &t.side} {
		if mm.Start.IsZero() || ts.Before(mm.Start) {
			mm.Start = ts
		}
		if ts.After(mm.End) {
			mm.End = ts
		}
	}
}

func (t *metaTracker) meta() Meta {
	m := t.main
	setFirst(&m.SessionID, t.side.SessionID)
	setFirst(&m.CWD, t.side.CWD)
	setFirst(&m.GitBranch, t.side.GitBranch)
	setFirst(&m.Version, t.side.Version)
	setFirst(&m.Agent, t.side.Agent)
	return m
}

func setFirst(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}
