package consolidate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRejectionsSeenWhenTheyChange: the rejections are parsed once and
// kept, yet a rejection recorded after they were read (by another
// process's inbox, or a team file a pull rewrote or removed) counts at
// the next fact.
func TestRejectionsSeenWhenTheyChange(t *testing.T) {
	first := Fact{Description: "The gadget port for service hk3 is 93", Body: "Found in the service's config.", Confidence: 0.6, Source: "session:s1"}
	second := Fact{Description: "The widget cache for job w7 holds 400 entries", Body: "Seen in the job's settings.", Confidence: 0.6, Source: "session:s1"}
	tests := []struct {
		kind   string
		change func(t *testing.T, e *env, other *Inbox, team string)
		want   Action // of second, added again after the change
	}{
		{"rejected by another process", func(t *testing.T, e *env, other *Inbox, team string) {
			reject(t, e, other, second)
		}, Rejected},
		{"team file replaced, same size and time", func(t *testing.T, e *env, other *Inbox, team string) {
			// A pull replaced the file (a new one renamed in) with another
			// rejection whose line is as long, at the same time.
			fi, err := os.Stat(team)
			if err != nil {
				t.Fatal(err)
			}
			r := Rejection{Name: "w7", Description: second.Description, Body: second.Body, At: t0}
			line, _ := json.Marshal(r)
			r.Reason = strings.Repeat("x", int(fi.Size())-len(line)-len(`,"reason":""`)-1)
			line, _ = json.Marshal(r)
			tmp := team + ".tmp"
			if err := os.WriteFile(tmp, append(line, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, team); err != nil {
				t.Fatal(err)
			}
			if now, _ := os.Stat(team); now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
				t.Fatalf("the new file is %d bytes at %v, want %d at %v", now.Size(), now.ModTime(), fi.Size(), fi.ModTime())
			}
		}, Rejected},
		{"a teammate's rejection, then the team file removed", func(t *testing.T, e *env, other *Inbox, team string) {
			appendRejection(t, team, Rejection{Name: "w7", Description: second.Description, Body: second.Body, By: "alice", At: t0})
			if got := e.add(t, second); got.Action != Rejected { // read while the rejection is there
				t.Fatalf("Add(%q) with the team's rejection = %+v, want rejected", second.Description, got)
			}
			if err := os.Remove(team); err != nil {
				t.Fatal(err)
			}
		}, Drafted},
		{"own rejection, then the team file removed", func(t *testing.T, e *env, other *Inbox, team string) {
			// What this person rejected is kept in the state folder too:
			// a pull that removes the team's file does not undo it.
			reject(t, e, other, second)
			if err := os.Remove(team); err != nil {
				t.Fatal(err)
			}
		}, Rejected},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			e := setup(t)
			team := filepath.Join(e.c.Project.Dir, TeamRejections)
			e.c.Inbox.ShareRejections(e.c.Project.Dir)
			other, err := OpenInbox(filepath.Dir(e.c.Inbox.Dir))
			if err != nil {
				t.Fatal(err)
			}
			other.LockWith(e.c.Project).ShareRejections(e.c.Project.Dir)
			reject(t, e, e.c.Inbox, first)
			if got := e.add(t, first); got.Action != Rejected { // the rejections are read, and kept
				t.Fatalf("Add(rejected fact) = %+v, want rejected", got)
			}
			tt.change(t, e, other, team)
			if got := e.add(t, second); got.Action != tt.want {
				t.Errorf("Add(%q) after the change = %+v, want %s", second.Description, got, tt.want)
			}
		})
	}
}

// reject drafts f and has in reject the draft.
func reject(t *testing.T, e *env, in *Inbox, f Fact) {
	t.Helper()
	o := e.add(t, f)
	if o.Action != Drafted {
		t.Fatalf("Add(%q) = %+v, want drafted", f.Description, o)
	}
	if err := in.Reject(e.ctx, o.Name, "wrong", t0); err != nil {
		t.Fatal(err)
	}
}

// appendRejection appends r to the rejections file path, as a teammate's
// commit brings it.
func appendRejection(t *testing.T, path string, r Rejection) {
	t.Helper()
	line, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
}
