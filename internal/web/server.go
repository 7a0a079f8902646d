package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"time"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

//go:embed assets templates
var files embed.FS

// Config is what the page works on. Every field but User, Search,
// Suspects, Docs and Checker is required.
type Config struct {
	Project *vault.Vault // the project vault
	User    *vault.Vault // the user vault; nil when there is none
	Inbox   *consolidate.Inbox
	State   string // the project's state folder (queue.db)
	// Search is mnemo's recall over both vaults; nil turns search off.
	Search func(ctx context.Context, q recall.Query) ([]recall.Result, error)
	// Suspects returns what the last verify found; nil: nothing is known.
	Suspects func(ctx context.Context) (map[index.Key]index.Verdict, error)
	// Docs returns the indexed memories with their recall counts; nil:
	// none are known.
	Docs func(ctx context.Context) ([]index.Doc, error)
	// Checker verifies memories against the repository for the Stale
	// page's fixes; nil: it offers none.
	Checker Checker
	Now     func() time.Time
}

// A Server is the review page on one listener.
type Server struct {
	cfg   Config
	ln    net.Listener
	guard *guard
	pages *pages
}

// Listen opens the listener on addr, which must be a loopback address.
func Listen(cfg Config, addr string) (*Server, error) {
	if !Loopback(addr) {
		return nil, fmt.Errorf("ui: %s is not a loopback address: the page is served to this machine only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	s, err := newServer(cfg, ln.Addr().String())
	if err != nil {
		ln.Close()
		return nil, err
	}
	s.ln = ln
	return s, nil
}

func newServer(cfg Config, addr string) (*Server, error) {
	g, err := newGuard(addr)
	if err != nil {
		return nil, err
	}
	p, err := parsePages()
	if err != nil {
		return nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Server{cfg: cfg, guard: g, pages: p}, nil
}

// URL is the address to open, with the token.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/?token=" + s.guard.token }

// Handler is the page behind its guard.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	assets, _ := fs.Sub(files, "assets")
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(assets)))
	mux.HandleFunc("GET /{$}", s.inbox)
	mux.HandleFunc("POST /inbox", s.inboxAction)
	mux.HandleFunc("GET /inbox/{name}/edit", s.draftEdit)
	mux.HandleFunc("POST /inbox/{name}/edit", s.draftEditApprove)
	mux.HandleFunc("POST /inbox/{name}/resolve", s.resolve)
	mux.HandleFunc("POST /native/{where}/{name}", s.native)
	mux.HandleFunc("GET /memories", s.memories)
	mux.HandleFunc("GET /m/{where}/{name}", s.memory)
	mux.HandleFunc("POST /m/{where}/{name}/edit", s.memoryEdit)
	mux.HandleFunc("POST /m/{where}/{name}/rename", s.memoryRename)
	mux.HandleFunc("POST /m/{where}/{name}/delete", s.memoryDelete)
	mux.HandleFunc("POST /m/{where}/{name}/follow", s.follow)
	mux.HandleFunc("POST /m/{where}/{name}/reanchor", s.reanchor)
	mux.HandleFunc("POST /merge", s.merge)
	mux.HandleFunc("GET /stale", s.stale)
	mux.HandleFunc("GET /graph", s.graph)
	mux.HandleFunc("GET /activity", s.activity)
	return s.guard.wrap(mux)
}

// Serve answers requests until ctx is done, then shuts down, giving open
// requests a few seconds.
func (s *Server) Serve(ctx context.Context) error {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(s.ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("ui: %w", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		return fmt.Errorf("ui: shut down: %w", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("ui: %w", err)
	}
	return nil
}
