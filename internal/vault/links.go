package vault

import "slices"

// A Graph holds the [[links]] between the memories of one listing.
type Graph struct {
	Links     map[string][]string // name → the names it links to, in body order
	Backlinks map[string][]string // name → the memories linking to it, sorted
	Dangling  map[string][]string // missing name → the memories linking to it, sorted
}

// LinkGraph builds the link graph of entries. A link to a memory that does
// not exist is not an error: it marks a memory worth writing.
func LinkGraph(entries []Entry) Graph {
	g := Graph{Links: map[string][]string{}, Backlinks: map[string][]string{}, Dangling: map[string][]string{}}
	exists := make(map[string]bool, len(entries))
	for _, e := range entries {
		exists[e.Name] = true
	}
	for _, e := range entries {
		links := e.Memory.Links()
		g.Links[e.Name] = links
		for _, to := range links {
			if exists[to] {
				g.Backlinks[to] = append(g.Backlinks[to], e.Name)
			} else {
				g.Dangling[to] = append(g.Dangling[to], e.Name)
			}
		}
	}
	for _, m := range []map[string][]string{g.Backlinks, g.Dangling} {
		for _, v := range m {
			slices.Sort(v)
		}
	}
	return g
}
