package mcpserver

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// Name is the server's name in the initialize handshake; agents register
// it under the same name, so Claude Code calls its tools mcp__mnemo__….
const Name = "mnemo"

// GCPercent is the garbage collector setting a process serving MCP should
// run with (debug.SetGCPercent). A recall allocates several times the
// server's live heap of a few megabytes, so at Go's default of 100 the
// collector runs on nearly every call; at 400 it runs a quarter as often,
// which measured a third off a recall's CPU time at 10,000 memories. The
// larger heap while busy is given back when the server goes idle.
const GCPercent = 400

// MaxTextBytes is the most a tool description or the server instructions
// may hold: Claude Code cuts both at 2 KB.
const MaxTextBytes = 2048

//go:embed instructions.md
var instructions string

// Config is the world a server works in.
type Config struct {
	Project  *vault.Vault // the project vault: /memories, memory://…
	User     *vault.Vault // the user vault: facts about the user across projects
	StateDir string       // the project's state folder: index.db, inbox/, forgotten/
	Root     string       // the repository root; anchors and file paths are relative to it
	InGit    bool         // whether Root is a git work tree, for verify
	// Mounts are the vaults mounted read-only ('mnemo vault add'): recalled
	// under their names, never written.
	Mounts []index.Source

	// Session is the agent's session the server serves, as Claude Code
	// gives it in CLAUDE_CODE_SESSION_ID; "" when the agent does not say.
	// What the agent writes is checked against the person's prompts of it.
	Session string
	// Started is when the server started (default: Now when New runs):
	// without a Session, the person's words are the prompts since.
	Started time.Time

	// Head returns git HEAD, recorded in anchors; nil or "" outside git.
	Head func(context.Context) string
	Now  func() time.Time
	// Log receives what the server does and what failed: stderr and the
	// state log, never stdout, which carries the protocol.
	Log     *slog.Logger
	Version string
	// IdleRelease is how long the index stays open unused; 0 means
	// [DefaultIdleRelease].
	IdleRelease time.Duration
	// Semantic embeds queries for recall by meaning; nil turns it off.
	// The server never embeds memories: the worker does.
	Semantic recall.QueryEmbedder
	// Compare, when set, is consolidation's similarity of meaning for
	// remember (see [consolidate.Consolidator.Semantic]).
	Compare func(ctx context.Context, a, b string) (float64, error)
}

// A Server answers one MCP client.
type Server struct {
	cfg Config
	mcp *mcp.Server

	mu     sync.Mutex  // guards following
	db     *index.DB   // opened on first use; closed after IdleRelease unused
	inUse  int         // callers holding db
	idle   *time.Timer // closes db when it fires
	watch  watcher     // reports changes to the vault folders
	closed bool

	background sync.WaitGroup // the statistics timer; Close waits for it

	statsMu    sync.Mutex // guards following
	pending    []index.Key
	pendingAt  time.Time
	statsTimer *time.Timer

	verdictsMu sync.Mutex // guards following
	verdicts   map[index.Key]index.Verdict
	verdictsAt time.Time

	memo   shownMemo      // what recall's memories' texts were shown as
	hashes staleness.Memo // the anchored files' hashes, while they are unchanged
}

// New returns a server with every tool and resource registered.
func New(cfg Config) *Server {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Head == nil {
		cfg.Head = func(context.Context) string { return "" }
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.IdleRelease <= 0 {
		cfg.IdleRelease = DefaultIdleRelease
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.Started.IsZero() {
		cfg.Started = cfg.Now()
	}
	if cfg.Semantic != nil {
		cfg.Semantic = recall.NewQueryCache(cfg.Semantic, queryCache)
	}
	s := &Server{cfg: cfg}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Title: "mnemo memory", Version: cfg.Version},
		&mcp.ServerOptions{
			Instructions: instructions,
			// Tools, resources; no logging capability: logs go to stderr.
			Capabilities: &mcp.ServerCapabilities{},
		})
	s.addRecall()
	s.addRemember()
	s.addUpdate()
	s.addForget()
	s.addGet()
	s.addList()
	s.addVerify()
	s.addMemoryTool()
	s.addResources()
	return s
}

// Run serves the client on t until it disconnects or ctx ends, then closes
// the index. Ending because the client closed the connection is not an error.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	s.cfg.Log.Info("mcp server started", "vault", s.cfg.Project.Dir, "version", s.cfg.Version)
	err := s.mcp.Run(ctx, t)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, mcp.ErrConnectionClosed) && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		s.cfg.Log.Error("mcp server stopped", "err", err)
		return fmt.Errorf("mcpserver: %w", err)
	}
	s.cfg.Log.Info("mcp server stopped")
	return nil
}

// Close releases the index and the folder watch. The server answers no
// more calls after it.
func (s *Server) Close() error {
	s.statsMu.Lock()
	t := s.statsTimer
	s.statsMu.Unlock()
	if t != nil && t.Stop() {
		s.background.Done() // the timer will not run: write now
		s.flushStats()
	}
	s.background.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.idle != nil {
		s.idle.Stop()
	}
	var err error
	if s.watch != nil {
		err = s.watch.Close()
		s.watch = nil
	}
	if s.db != nil {
		if cerr := s.db.Close(); err == nil {
			err = cerr
		}
		s.db = nil
	}
	return err
}
