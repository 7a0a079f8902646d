package consolidate

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/vault"
)

func TestVetoes(t *testing.T) {
	at := t0.Add(-24 * time.Hour)
	tests := []struct {
		kind   string
		own    bool
		stated bool
		said   time.Time
		want   bool
	}{
		{"own, stated after", true, true, t0, true},
		{"own, not stated", true, false, t0, true},
		{"own, stated before", true, true, at.Add(-time.Hour), true},
		{"team's, stated after", false, true, t0, false},
		{"team's, stated before", false, true, at.Add(-time.Hour), true},
		{"team's, stated the same instant", false, true, at, true},
		{"team's, not stated", false, false, t0, true},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			r := Rejection{At: at, Own: tt.own}
			if got := vetoes(r, Fact{Stated: tt.stated}, tt.said); got != tt.want {
				t.Errorf("vetoes(own %v, stated %v, said %s after the rejection) = %v, want %v",
					tt.own, tt.stated, tt.said.Sub(at), got, tt.want)
			}
		})
	}
}

// TestTeamRejectionIsEvidence: a fact that a rejection matches is dropped
// when the rejection is this person's, or a teammate's made after it was
// said, or it is not in the person's words; a teammate's rejection of
// what the person stated after it makes it a draft whose reason names the
// rejection.
func TestTeamRejectionIsEvidence(t *testing.T) {
	before, after := t0.AddDate(0, -6, 0), t0.AddDate(0, 0, 1)
	stated := Fact{Description: "We deploy with make deploy now", Body: "We deploy with make deploy now.",
		Confidence: 0.9, Stated: true, Source: "session:s1", At: t0}
	inferred := stated
	inferred.Stated = false
	rejected := Rejection{Name: "we-deploy-with-make-deploy", Description: "We deploy with make deploy",
		Body: "We deploy with make deploy.", Reason: "we use ansible", By: "alice", At: before}
	with := func(change func(*Rejection)) Rejection {
		r := rejected
		change(&r)
		return r
	}
	tests := []struct {
		kind      string
		own, team []Rejection // in the state folder's file, in the team's
		line      string      // appended to the team's file as it is
		f         Fact
		want      Action
		wantWhy   string // the draft's reason in words, or the rejection named
	}{
		{kind: "own", own: []Rejection{rejected}, f: stated, want: Rejected,
			wantWhy: `rejected by you on 2026-05-30 (said "We deploy with make deploy"; reason: "we use ansible")`},
		{kind: "team's, stated after", team: []Rejection{rejected}, f: stated, want: Drafted,
			wantWhy: `rejected by alice on 2026-05-30 (said "We deploy with make deploy"; reason: "we use ansible")`},
		{kind: "team's, stated before", team: []Rejection{with(func(r *Rejection) { r.At = after })}, f: stated, want: Rejected},
		{kind: "team's, inferred", team: []Rejection{rejected}, f: inferred, want: Rejected},
		{kind: "team's latest decides", team: []Rejection{rejected, with(func(r *Rejection) { r.At = after })}, f: stated, want: Rejected},
		{kind: "own wins over the team's", own: []Rejection{rejected}, team: []Rejection{with(func(r *Rejection) { r.At = before.Add(-time.Hour) })},
			f: stated, want: Rejected},
		{kind: "an old record: no by, no reason", team: []Rejection{with(func(r *Rejection) { r.By, r.Reason = "", "" })}, f: stated, want: Drafted,
			wantWhy: `rejected by a teammate on 2026-05-30 (said "We deploy with make deploy")`},
		{kind: "a line claiming to be own", line: `{"name":"x","description":"We deploy with make deploy","body":"We deploy with make deploy.","own":true,"at":"2026-05-30T10:00:00Z"}`,
			f: stated, want: Drafted, wantWhy: `rejected by a teammate on 2026-05-30 (said "We deploy with make deploy")`},
		{kind: "a secret in the reason, a terminal escape and a direction override in by", team: []Rejection{with(func(r *Rejection) {
			r.Reason, r.By = "token=hunter2hunter2hunter2", "ali\x1b[2J\u202ece"
		})}, f: stated, want: Drafted,
			wantWhy: `rejected by ali[2Jce on 2026-05-30 (said "We deploy with make deploy"; reason: "token=[REDACTED:token]")`},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			e := setup(t)
			e.c.Inbox.ShareRejections(e.c.Project.Dir)
			team := filepath.Join(e.c.Project.Dir, TeamRejections)
			for _, r := range tt.own {
				appendRejection(t, filepath.Join(filepath.Dir(e.c.Inbox.Dir), "rejected.jsonl"), r)
			}
			for _, r := range tt.team {
				appendRejection(t, team, r)
			}
			if tt.line != "" {
				if err := os.WriteFile(team, []byte(tt.line+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := e.add(t, tt.f)
			if o.Action != tt.want {
				t.Fatalf("Add(%q) = %+v, want %s", tt.f.Description, o, tt.want)
			}
			if o.Rejection == nil {
				t.Fatalf("Add(%q) = %+v, names no rejection", tt.f.Description, o)
			}
			if o.Action == Rejected {
				if tt.wantWhy != "" && o.Rejection.String() != tt.wantWhy {
					t.Errorf("the rejection = %s, want %s", o.Rejection, tt.wantWhy)
				}
				return
			}
			if !slices.Contains(o.Reasons, ReasonTeamRejected) {
				t.Errorf("Add(%q).Reasons = %v, want %s among them", tt.f.Description, o.Reasons, ReasonTeamRejected)
			}
			ds, err := e.c.Inbox.List()
			if err != nil || len(ds) != 1 {
				t.Fatalf("inbox = %v, %v; want the one draft", ds, err)
			}
			s, ok, err := e.c.Inbox.Drafting(ds[0])
			if err != nil || !ok || s.Rejection == nil {
				t.Fatalf("Drafting(%s) = %+v, %v, %v; want the rejection recorded", ds[0].Name, s, ok, err)
			}
			if got := Explain(e.c.Inbox.Reasons(ds[0], Link{}), Link{}, s.Rejection); !strings.Contains(got, tt.wantWhy) {
				t.Errorf("Explain(the draft's reasons) = %q, want it to hold %q", got, tt.wantWhy)
			}
		})
	}
}

// TestRejectRecordsOwn: a draft this person rejects is recorded in the
// team's file for the team, with who rejected it, and in the state folder
// as their own, so that it keeps dropping the fact.
func TestRejectRecordsOwn(t *testing.T) {
	e := setup(t)
	e.c.Inbox.ShareRejections(e.c.Project.Dir).As("bob")
	f := Fact{Description: "The gadget port for service hk3 is 93", Body: "Found in the config.", Confidence: 0.6, Source: "session:s1", At: t0}
	reject(t, e, e.c.Inbox, f)
	for _, path := range []string{filepath.Join(e.c.Project.Dir, TeamRejections), filepath.Join(filepath.Dir(e.c.Inbox.Dir), "rejected.jsonl")} {
		rs, err := readJSONL[Rejection](path)
		if err != nil || len(rs) != 1 || rs[0].By != "bob" || rs[0].Own {
			t.Errorf("%s holds %+v, %v; want one rejection by bob", path, rs, err)
		}
	}
	f.Stated, f.At = true, e.c.Now.Add(time.Hour)
	if o := e.add(t, f); o.Action != Rejected || o.Rejection == nil || !o.Rejection.Own {
		t.Errorf("Add(%q) after rejecting it = %+v, want rejected, by its own rejection", f.Description, o)
	}
}

// TestTeamRejectionOfAMemory: what a memory says already is a duplicate,
// whatever a teammate rejected: nothing waits, and the outcome names no
// rejection.
func TestTeamRejectionOfAMemory(t *testing.T) {
	e := setup(t)
	e.c.Inbox.ShareRejections(e.c.Project.Dir)
	f := Fact{Description: "We deploy with make deploy now", Body: "We deploy with make deploy now.",
		Confidence: 0.9, Stated: true, Source: "session:s1", At: t0}
	if o := e.add(t, f); o.Action != Added {
		t.Fatalf("Add(%q) = %+v, want added", f.Description, o)
	}
	appendRejection(t, filepath.Join(e.c.Project.Dir, TeamRejections),
		Rejection{Name: "we-deploy-with-make-deploy", Description: f.Description, Body: f.Body, By: "alice", At: t0.Add(-time.Hour)})
	f.At = t0.Add(time.Hour)
	if o := e.add(t, f); o.Action != Duplicate || o.Rejection != nil {
		t.Errorf("Add(%q) again after a teammate's rejection = %+v, want a duplicate naming no rejection", f.Description, o)
	}
}

// TestExpireIsNoRejection: a draft that expired (gc) is kept in the state
// folder's forgotten/ and recorded in neither rejections file, so the fact
// it held is kept when the person states it later; a line an earlier gc
// wrote into either file is no rejection either, while a person's own
// rejection, whatever its reason says, still drops the fact.
func TestExpireIsNoRejection(t *testing.T) {
	stated := Fact{Description: "We deploy with make deploy now", Body: "We deploy with make deploy now.",
		Confidence: 0.9, Stated: true, Source: "session:s2", At: t0.AddDate(0, 1, 0)}
	inferred := Fact{Description: "We deploy with make deploy", Body: "We deploy with make deploy.",
		Confidence: 0.6, Source: "session:s1", At: t0}
	old := Rejection{Name: "we-deploy-with-make-deploy", Description: inferred.Description, Body: inferred.Body,
		Reason: "gc: draft waiting since 2026-10-01", By: "bob", At: t0.AddDate(0, -1, 0)}
	with := func(reason string) Rejection {
		r := old
		r.Reason = reason
		return r
	}
	tests := []struct {
		kind      string
		expire    bool        // the inferred fact is drafted, then expired
		own, team []Rejection // in the state folder's file, in the team's
		want      Action
	}{
		{kind: "expired", expire: true, want: Added},
		{kind: "an old gc line of own", own: []Rejection{old}, want: Added},
		{kind: "an old gc line of the team's", team: []Rejection{old}, want: Added},
		{kind: "own, a reason that starts like gc's", own: []Rejection{with("gc: draft waiting since we know it is wrong")}, want: Rejected},
		{kind: "own, the reason gc gives, without gc's prefix", own: []Rejection{with("draft waiting since 2026-10-01")}, want: Rejected},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			e := setup(t)
			e.c.Inbox.ShareRejections(e.c.Project.Dir).As("bob")
			state := filepath.Dir(e.c.Inbox.Dir)
			own, team := filepath.Join(state, "rejected.jsonl"), filepath.Join(e.c.Project.Dir, TeamRejections)
			for _, r := range tt.own {
				appendRejection(t, own, r)
			}
			for _, r := range tt.team {
				appendRejection(t, team, r)
			}
			if tt.expire {
				expire(t, e, inferred, state)
				for _, path := range []string{own, team} {
					if _, err := os.Stat(path); !os.IsNotExist(err) {
						t.Errorf("%s exists (%v) after an expiry, want no rejection recorded", path, err)
					}
				}
			}
			if o := e.add(t, stated); o.Action != tt.want {
				t.Errorf("Add(%q) = %+v, want %s", stated.Description, o, tt.want)
			}
		})
	}
}

// expire drafts f and expires the draft, checking that it is kept in
// forgotten/ of the state folder and that the inbox has it no more.
func expire(t *testing.T, e *env, f Fact, state string) {
	t.Helper()
	o := e.add(t, f)
	if o.Action != Drafted {
		t.Fatalf("Add(%q) = %+v, want drafted", f.Description, o)
	}
	r := vault.Removal{Vault: "inbox", Reason: "draft waiting since 2026-11-30", Source: "mnemo gc", At: e.c.Now}
	dest, err := e.c.Inbox.Expire(e.ctx, o.Name, r)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(dest); err != nil || !strings.Contains(string(data), f.Body) || filepath.Dir(dest) != filepath.Join(state, vault.ForgottenDir) {
		t.Errorf("the copy %s holds %q, %v; want the draft, in forgotten/", dest, data, err)
	}
	if _, err := e.c.Inbox.Expire(e.ctx, o.Name, r); !errors.Is(err, ErrNoDraft) {
		t.Errorf("Expire(%s) again = %v, want %v", o.Name, err, ErrNoDraft)
	}
}
