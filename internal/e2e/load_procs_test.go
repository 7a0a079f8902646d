package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A workerLoop keeps one 'mnemo worker' running, starting another when
// one exits (idle, or killed).
type workerLoop struct {
	s *sandbox

	mu     sync.Mutex // guards following
	cmd    *exec.Cmd  // the worker running; nil between two
	killed int
	errs   []error
}

func (w *workerLoop) run(ctx context.Context) {
	for ctx.Err() == nil {
		cmd := exec.Command(w.s.mnemo, "worker", "--idle", "1s")
		var stderr bytes.Buffer
		cmd.Dir, cmd.Env, cmd.Stderr = w.s.project, w.s.env, &stderr
		if err := cmd.Start(); err != nil {
			w.fail(err)
			return
		}
		w.mu.Lock()
		w.cmd = cmd
		w.mu.Unlock()
		err := cmd.Wait()
		w.mu.Lock()
		w.cmd = nil
		w.mu.Unlock()
		if err != nil && !signalled(cmd, syscall.SIGKILL) {
			w.fail(fmt.Errorf("worker: %v: %s", err, stderr.String()))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (w *workerLoop) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.errs = append(w.errs, err)
}

// kill SIGKILLs the running worker and reports whether one ran.
func (w *workerLoop) kill() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cmd == nil || w.cmd.Process.Signal(syscall.SIGKILL) != nil {
		return false
	}
	w.cmd = nil // killed once
	w.killed++
	return true
}

// stop ends the running worker with SIGTERM, as a shutdown does, and
// waits for it: it must exit 0, its job released.
func (w *workerLoop) stop() {
	w.mu.Lock()
	cmd := w.cmd
	w.mu.Unlock()
	if cmd != nil {
		cmd.Process.Signal(syscall.SIGTERM)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		w.mu.Lock()
		running := w.cmd != nil
		w.mu.Unlock()
		if !running {
			return
		}
	}
	w.fail(errors.New("the worker did not exit within 30 s of SIGTERM"))
}

func signalled(cmd *exec.Cmd, sig syscall.Signal) bool {
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// An mcpServer is an agent's 'mnemo mcp', started again after each kill.
type mcpServer struct {
	s    *sandbox
	name string

	mu      sync.Mutex // guards following
	cmd     *exec.Cmd
	session *mcp.ClientSession
	gen     int           // bumped by each kill: a call that fails across one is expected to
	stderr  *lockedBuffer // the running server's
}

func (m *mcpServer) connect() (*mcp.ClientSession, int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.session != nil {
		return m.session, m.gen, nil
	}
	cmd := exec.Command(m.s.mnemo, "mcp")
	m.stderr = &lockedBuffer{}
	cmd.Dir, cmd.Env, cmd.Stderr = m.s.project, m.s.env, m.stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "mnemo-load", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, m.gen, fmt.Errorf("mcp %s: connect: %w", m.name, err)
	}
	m.cmd, m.session = cmd, session
	return session, m.gen, nil
}

// kill SIGKILLs the server and reports whether one ran. Its session is
// closed: the next call connects to a new server.
func (m *mcpServer) kill() bool {
	m.mu.Lock()
	if m.cmd == nil || m.cmd.Process == nil || m.cmd.Process.Signal(syscall.SIGKILL) != nil {
		m.mu.Unlock()
		return false
	}
	session := m.session
	m.cmd, m.session = nil, nil
	m.gen++
	m.mu.Unlock()
	session.Close()
	return true
}

// drop forgets a session that failed, closing it.
func (m *mcpServer) drop(session *mcp.ClientSession) {
	session.Close()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.session == session {
		m.session, m.cmd = nil, nil
	}
}

func (m *mcpServer) close() {
	m.mu.Lock()
	session := m.session
	m.mu.Unlock()
	if session != nil {
		m.drop(session)
	}
}

// write remembers distinct facts and recalls each, reconnecting after a
// kill. A call that fails with no kill in between is a failure.
func (m *mcpServer) write(ctx context.Context, log *writeLog) {
	for i := 0; ctx.Err() == nil; i++ {
		session, gen, err := m.connect()
		if err != nil {
			log.fail(err)
			time.Sleep(time.Second)
			continue
		}
		token := fmt.Sprintf("mcp%s-%d", m.name, i)
		fact := fmt.Sprintf("The gadget port for service %s is %d.", token, 9000+i)
		_, err = callMCP(session, "remember", map[string]any{"description": fact, "fact": fact, "confidence": 1.0})
		if err == nil {
			log.fact(token)
			_, err = callMCP(session, "recall", map[string]any{"query": "gadget port " + token})
		}
		if err != nil {
			m.mu.Lock()
			killed, stderr := m.gen != gen, m.stderr.String()
			m.mu.Unlock()
			if !killed {
				log.fail(fmt.Errorf("mcp %s: %w (its stderr: %s)", m.name, err, stderr))
			}
			m.drop(session)
		}
		time.Sleep(100 * time.Millisecond) // an agent between two tool calls
	}
}

// A killable is a process the test may SIGKILL.
type killable interface{ kill() bool }

// killAtRandom SIGKILLs the worker or an MCP server at random moments
// for d, and after d until it has killed loadKills of them (on a loaded
// machine the processes spend longer starting again, between kills: 41
// of 50 in 40 s at load 18), and returns how many. It gives up at 5d.
func killAtRandom(d time.Duration, w *workerLoop, servers []*mcpServer) int {
	targets := []killable{w, w} // the worker half the time
	for _, m := range servers {
		targets = append(targets, m)
	}
	every := d / (loadKills + 10)
	start := time.Now()
	n := 0
	for n < loadKills || time.Since(start) < d {
		if time.Since(start) > 5*d {
			return n
		}
		time.Sleep(every/2 + rand.N(every))
		if n == loadKills {
			continue // the load lasts d at least
		}
		for _, i := range rand.Perm(len(targets)) {
			if targets[i].kill() {
				n++
				break
			}
		}
	}
	return n
}

// queuedJob is what the checks read of 'mnemo queue list --json'.
type queuedJob struct {
	ID        int64  `json:"id"`
	Session   string `json:"session"`
	Event     string `json:"event"`
	State     string `json:"state"`
	LastError string `json:"last_error"`
}

func (s *sandbox) jobs(t *testing.T) []queuedJob {
	t.Helper()
	var jobs []queuedJob
	if err := json.Unmarshal([]byte(s.mnemoRun("queue", "list", "--json")), &jobs); err != nil {
		t.Fatal(err)
	}
	return jobs
}

// drainQueue runs the worker until no job waits: those a killed worker
// held are taken again when their lease runs out.
func drainQueue(t *testing.T, s *sandbox) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Second) {
		s.mnemoRun("worker", "--once")
		waiting := 0
		for _, j := range s.jobs(t) {
			if j.State == "pending" || j.State == "leased" {
				waiting++
			}
		}
		if waiting == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d jobs still wait a minute after the load", waiting)
		}
	}
}

// checkLoad checks what the load left: nothing reported written lost or
// doubled, every session captured to its end, doctor --deep passing, and
// no hook past its deadline.
func checkLoad(t *testing.T, s *sandbox, log *writeLog, w *workerLoop, sessions []string) {
	for _, err := range append(log.errs, w.errs...) {
		t.Error(err)
	}
	texts := s.memoryTexts(t)
	for _, token := range log.facts {
		if n := countHolding(texts, token); n != 1 {
			t.Errorf("fact %s is in %d memories, want exactly 1", token, n)
		}
	}
	notes := s.mnemoRun("show", "shared-notes")
	for _, line := range log.appends {
		if !strings.Contains(notes, line) {
			t.Errorf("shared-notes lost the edit reported done %q", line)
		}
	}
	ended := map[string]bool{}
	for _, j := range s.jobs(t) {
		if j.State != "done" {
			t.Errorf("job %d (session %s, %s) is %s: %s", j.ID, j.Session, j.Event, j.State, j.LastError)
		}
		ended[j.Session] = ended[j.Session] || j.Event == "session-end"
	}
	for _, id := range sessions {
		if !ended[id] {
			t.Errorf("session %s has no session-end job: its capture was lost", id)
		}
	}
	lines := strings.Split(s.stateLog(), "\n")
	for i, line := range lines {
		if strings.Contains(line, "hook gave up at its deadline") || strings.Contains(line, `msg="hook failed"`) {
			t.Errorf("state log: %s\nbefore it:\n%s", line, strings.Join(lines[max(i-15, 0):i], "\n"))
		}
	}
	cmd := exec.Command(s.mnemo, "doctor", "--deep")
	cmd.Dir, cmd.Env = s.project, s.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("mnemo doctor --deep after the load: %v\n%s", err, out)
	}
	if len(log.facts) < 20 || len(log.appends) == 0 {
		t.Errorf("the writers did too little to test anything: %d facts, %d edits", len(log.facts), len(log.appends))
	}
}

// A lockedBuffer is a buffer a process writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
