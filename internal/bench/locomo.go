package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A Conversation is one LoCoMo sample: dialog turns grouped in dated
// sessions, and questions whose evidence is a set of turns.
type Conversation struct {
	ID        string
	Sessions  []Session
	Questions []Question
}

// A Session is one dated exchange of turns.
type Session struct {
	Number int
	Date   time.Time // zero when the date text does not parse
	Turns  []Turn
}

// A Turn is one utterance.
type Turn struct {
	ID      string // "D<session>:<turn>"
	Speaker string
	Text    string
	Caption string // the caption of a shared image, if any
}

// A Question asks about the conversation; Evidence lists the turns that
// answer it, only ids that exist.
type Question struct {
	Text     string
	Category int
	Evidence []string
}

type rawSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question string   `json:"question"`
		Evidence []string `json:"evidence"`
		Category int      `json:"category"`
	} `json:"qa"`
}

type rawTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

// LoadLoCoMo reads a LoCoMo JSON file.
func LoadLoCoMo(path string) ([]Conversation, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	var raw []rawSample
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("bench: read %s: %w", path, err)
	}
	convs := make([]Conversation, 0, len(raw))
	for _, r := range raw {
		c, err := r.conversation()
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %s: %w", path, r.SampleID, err)
		}
		convs = append(convs, c)
	}
	return convs, nil
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

func (r rawSample) conversation() (Conversation, error) {
	c := Conversation{ID: r.SampleID}
	exists := make(map[string]bool)
	for key, v := range r.Conversation {
		m := sessionKey.FindStringSubmatch(key)
		if m == nil {
			continue
		}
		var turns []rawTurn
		if err := json.Unmarshal(v, &turns); err != nil {
			return c, fmt.Errorf("%s: %w", key, err)
		}
		n, _ := strconv.Atoi(m[1])
		s := Session{Number: n, Date: sessionDate(r.Conversation[key+"_date_time"])}
		for _, t := range turns {
			id := canonicalID(t.DiaID)
			exists[id] = true
			s.Turns = append(s.Turns, Turn{ID: id, Speaker: t.Speaker, Text: t.Text, Caption: t.BlipCaption})
		}
		c.Sessions = append(c.Sessions, s)
	}
	sort.Slice(c.Sessions, func(i, j int) bool { return c.Sessions[i].Number < c.Sessions[j].Number })
	for _, q := range r.QA {
		ev := parseEvidence(q.Evidence, exists)
		c.Questions = append(c.Questions, Question{Text: q.Question, Category: q.Category, Evidence: ev})
	}
	return c, nil
}

// sessionDate reads LoCoMo's "1:56 pm on 8 May, 2023".
func sessionDate(raw json.RawMessage) time.Time {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return time.Time{}
	}
	for _, layout := range []string{"3:04 pm on 2 January, 2006", "3:04 pm on 2 Jan, 2006"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t
		}
	}
	return time.Time{}
}

var evidenceID = regexp.MustCompile(`D:?(\d+):0*(\d+)`)

// parseEvidence reads evidence ids as the benchmark's README says: split
// on ';', ',' and spaces, parse D:?(\d+):0*(\d+), drop ids that do not exist.
func parseEvidence(raw []string, exists map[string]bool) []string {
	var out []string
	seen := make(map[string]bool)
	for _, r := range raw {
		for _, part := range strings.FieldsFunc(r, func(c rune) bool { return c == ';' || c == ',' || c == ' ' }) {
			m := evidenceID.FindStringSubmatch(part)
			if m == nil {
				continue
			}
			id := "D" + m[1] + ":" + m[2]
			if exists[id] && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// canonicalID writes a dia_id without leading zeros in the turn number.
func canonicalID(id string) string {
	if m := evidenceID.FindStringSubmatch(id); m != nil {
		return "D" + m[1] + ":" + m[2]
	}
	return id
}
