package web

import (
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// A node is one memory placed on the graph; an edge joins two.
type node struct {
	Name, Where string
	X, Y        float64
	Degree      int
}

type edge struct{ X1, Y1, X2, Y2 float64 }

type graphData struct {
	W, H  int
	Nodes []node
	Edges []edge
}

// graph lays the [[link]] graph of the project vault on a circle, linked
// memories first, drawn as SVG by the server.
func (s *Server) graph(w http.ResponseWriter, r *http.Request) {
	entries, _ := s.cfg.Project.List()
	g := vault.LinkGraph(entries)
	deg := map[string]int{}
	for from, tos := range g.Links {
		for _, to := range tos {
			if _, ok := g.Links[to]; ok {
				deg[from]++
				deg[to]++
			}
		}
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name)
	}
	slices.SortStableFunc(names, func(a, b string) int { return deg[b] - deg[a] })
	d := graphData{W: 900, H: 640}
	pos := map[string]int{}
	rad := float64(min(d.W, d.H))/2 - 90
	for i, n := range names {
		a := 2 * math.Pi * float64(i) / float64(max(len(names), 1))
		pos[n] = i
		d.Nodes = append(d.Nodes, node{Name: n, Where: "project", Degree: deg[n],
			X: float64(d.W)/2 + rad*math.Cos(a), Y: float64(d.H)/2 + rad*math.Sin(a)})
	}
	for from, tos := range g.Links {
		for _, to := range tos {
			j, ok := pos[to]
			if !ok {
				continue
			}
			a, b := d.Nodes[pos[from]], d.Nodes[j]
			d.Edges = append(d.Edges, edge{a.X, a.Y, b.X, b.Y})
		}
	}
	s.render(w, r, "graph", view{Title: "Graph", Nav: "graph", Data: d})
}

type activityData struct {
	Running bool
	Counts  map[string]int
	Jobs    []queue.Job
	Today   int // tokens spent today
	Week    queue.Totals
	Err     string
}

func (s *Server) activity(w http.ResponseWriter, r *http.Request) {
	d := activityData{Running: queue.WorkerRunning(s.cfg.State)}
	q, err := queue.Open(r.Context(), s.cfg.State, nil)
	if err != nil {
		d.Err = err.Error()
		s.render(w, r, "activity", view{Title: "Activity", Nav: "activity", Data: d})
		return
	}
	defer q.Close()
	now := s.cfg.Now().UTC()
	d.Counts, _ = q.Counts(r.Context())
	jobs, _ := q.List(r.Context())
	slices.SortFunc(jobs, func(a, b queue.Job) int { return b.Created.Compare(a.Created) })
	d.Jobs = jobs[:min(len(jobs), 30)]
	d.Today, _ = q.Spent(r.Context(), now.Format(time.DateOnly))
	d.Week, _ = q.Totals(r.Context(), now.AddDate(0, 0, -7))
	s.render(w, r, "activity", view{Title: "Activity", Nav: "activity", Data: d})
}
