package memory

import (
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// A Type says what kind of fact a memory holds, which decides how long it lives.
type Type string

const (
	TypeUser      Type = "user"      // who the user is and how they work: durable
	TypeFeedback  Type = "feedback"  // corrections and preferences: durable
	TypeProject   Type = "project"   // decisions, conventions, dead ends: these expire
	TypeReference Type = "reference" // pointers to outside things
)

// Types lists every valid [Type] in the order the index groups them.
var Types = []Type{TypeUser, TypeFeedback, TypeProject, TypeReference}

// Valid reports whether t is one of [Types].
func (t Type) Valid() bool { return slices.Contains(Types, t) }

// A Status says whether a memory is in force.
type Status string

const (
	StatusActive     Status = "active"
	StatusSuperseded Status = "superseded"
)

// Limits of the file format.
const (
	MaxNameLen        = 64
	MaxDescriptionLen = 150     // characters (runes)
	MaxFileSize       = 1 << 20 // bytes; a memory is one fact, not a document
	DefaultConfidence = 1.0     // what a missing confidence key means
	BodyWordsWarning  = 120     // past this a body is probably more than one fact
	HashPrefixLen     = 16      // hex digits of SHA-256 kept in an anchor
)

var nameRE = lazyregexp.New(`^[a-z0-9][a-z0-9-]{0,63}$`)

// ValidName reports whether s can name a memory: a slug that is also its file name.
func ValidName(s string) bool { return nameRE.MatchString(s) }

// A FileAnchor ties a memory to the content of one file it describes.
type FileAnchor struct {
	Path   string // relative to the repository root, slash-separated
	SHA256 string // the first HashPrefixLen hex digits of the content's SHA-256
}

// Anchors record what a memory described when it was written.
type Anchors struct {
	Commit string // git HEAD at write time; empty outside git
	Files  []FileAnchor
}

// IsZero reports whether a holds nothing.
func (a Anchors) IsZero() bool { return a.Commit == "" && len(a.Files) == 0 }

// Header holds the header fields mnemo understands. A zero field is a key
// that is absent from the file, except Confidence, whose absent value is
// [DefaultConfidence], and Status, whose absent value is [StatusActive].
type Header struct {
	Name         string
	Description  string
	Type         Type
	Created      time.Time
	Updated      time.Time // also read from Claude Code's modified:
	Source       string
	Why          string
	Confidence   float64
	Status       Status
	SupersededBy string
	ReviewBy     time.Time // a date
	Anchors      Anchors
	Tags         []string
}

// equal reports whether h and o hold the same values.
func (h Header) equal(o Header) bool {
	return h.Name == o.Name && h.Description == o.Description && h.Type == o.Type &&
		h.Created.Equal(o.Created) && h.Updated.Equal(o.Updated) &&
		h.Source == o.Source && h.Why == o.Why && h.Confidence == o.Confidence &&
		h.Status == o.Status && h.SupersededBy == o.SupersededBy &&
		h.ReviewBy.Equal(o.ReviewBy) && h.Anchors.Commit == o.Anchors.Commit &&
		slices.Equal(h.Anchors.Files, o.Anchors.Files) && slices.Equal(h.Tags, o.Tags)
}

// A Memory is one fact: a header and a markdown body.
type Memory struct {
	Header
	Body string // every byte after the header's closing line

	src *source // what the memory was parsed from; nil for a new memory

	disowned    bool   // see [Memory.Disown]
	disownedWhy string // see [Memory.Disowned]
	approved    bool   // see [Memory.Approve]
}

// New returns a memory with the given header and body, the absent-key
// defaults filled in. A body that does not end in a newline gets one.
func New(h Header, body string) *Memory {
	if h.Status == "" {
		h.Status = StatusActive
	}
	if body != "" && body[len(body)-1] != '\n' {
		body += "\n"
	}
	return &Memory{Header: h, Body: body}
}

// Active reports whether m is in force (not superseded).
func (m *Memory) Active() bool { return m.Status != StatusSuperseded }

// Shown returns the words of m that mnemo gives an agent, one field a
// line: the description, the why, the tags and the body. It is the text to
// judge before m is given unreviewed: an instruction planted in its why
// reaches the agent as surely as one in its body.
func (m *Memory) Shown() string {
	return m.Description + "\n" + m.Why + "\n" + strings.Join(m.Tags, " ") + "\n" + m.Body
}

// Links returns the names m's body links to with [[name]], in order, once each.
func (m *Memory) Links() []string { return Links(m.Body) }

// Clone returns a deep copy of m that renders the same bytes.
func (m *Memory) Clone() *Memory {
	c := *m
	c.Tags = slices.Clone(m.Tags)
	c.Anchors.Files = slices.Clone(m.Anchors.Files)
	return &c
}
