package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// vocabulary is the word stock of synthetic memories: words of the kind
// engineering memories use. Words are drawn with a Zipf law, so a few are
// common and most are rare, as in real text: the commonest content word is
// about 0.8% of the words, as in English prose once stop words are gone.
const vocabulary = `
auth token session cookie login logout password hash salt bcrypt oauth jwt refresh scope
billing invoice payment stripe webhook refund subscription plan trial coupon tax currency
database postgres sqlite migration schema index query transaction deadlock lock replica
cache redis memcached ttl eviction warmup stampede key tenant shard partition
queue worker job retry backoff dead letter kafka topic consumer producer offset
http client server handler middleware router endpoint request response header status
grpc protobuf stream deadline timeout cancel context metadata interceptor
test fixture mock fake golden snapshot flaky race benchmark coverage fuzz
build compile linker module vendor dependency upgrade version release tag changelog
deploy rollout canary rollback kubernetes pod container image registry helm chart
config flag env secret vault rotation policy permission role admin audit
logging metrics tracing span alert dashboard latency throughput error budget
frontend react component state hook render prop style theme layout accessibility
api pagination cursor filter sort search ranking relevance score boost
file upload download storage bucket object checksum compression archive
email notification template queue digest unsubscribe bounce
user account profile avatar preference locale timezone settings
feature toggle experiment cohort rollout percentage
parser lexer token grammar syntax error recovery position
scheduler cron interval jitter lease heartbeat leader election
memory leak goroutine mutex channel deadlock profile heap allocation
security csrf xss injection sanitise escape validation input
docs readme guide tutorial example comment naming convention style
review approve merge conflict rebase branch commit hook lint format
performance slow fast optimise batch bulk stream lazy eager
mobile ios android push offline sync conflict resolution
search elasticsearch analyzer stemmer synonym tokenizer trigram
`

var fillers = strings.Fields(`the a of to in for on with by from at and or but not never always
must should uses use keep avoid prefer after before because when since until only also`)

var verbs = strings.Fields(`moved lives breaks fails needs requires replaced changed added removed
fixed caused blocks calls imports wraps retries logs caches skips validates`)

// synth makes reproducible synthetic memories.
type synth struct {
	rng   *rand.Rand
	words []string
	zipf  *rand.Zipf
	dirs  []string
	now   time.Time
	n     int
}

func newSynth(seed uint64, n int, now time.Time) *synth {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	base := strings.Fields(vocabulary)
	words := slices.Clone(base)
	// Rare words: project-specific identifiers such as "reqcache417", so
	// the vocabulary grows with the vault. They are made of the base words
	// only: made of earlier rare words, they grew to 100 characters and
	// more in a vault of 100,000, which no real text has.
	for i := range max(n/4, 200) {
		a, b := base[i%len(base)], base[(i*7)%len(base)]
		words = append(words, fmt.Sprintf("%s%s%d", a[:min(3, len(a))], b, i))
	}
	s := &synth{rng: rng, words: words, now: now, n: n}
	s.zipf = rand.NewZipf(rng, 1.05, 30, uint64(len(words)-1))
	for i := range max(n/50, 20) {
		s.dirs = append(s.dirs, fmt.Sprintf("internal/%s/%s", s.word(), strings.Repeat(string(rune('a'+i%26)), 1+i%3)))
	}
	return s
}

// name is the i-th memory's name, computable from i alone so links resolve.
func (s *synth) name(i int) string {
	w := s.words[(uint64(i)*2654435761)%uint64(len(s.words))]
	return fmt.Sprintf("%s-%06d", strings.ToLower(w), i)
}

func (s *synth) word() string { return s.words[s.zipf.Uint64()] }

// sentence is k words, mostly content words with some fillers and verbs.
func (s *synth) sentence(k int) string {
	parts := make([]string, 0, k)
	for range k {
		switch r := s.rng.IntN(10); {
		case r < 2:
			parts = append(parts, fillers[s.rng.IntN(len(fillers))])
		case r < 3:
			parts = append(parts, verbs[s.rng.IntN(len(verbs))])
		default:
			parts = append(parts, s.word())
		}
	}
	return strings.Join(parts, " ")
}

func (s *synth) file() string {
	return s.dirs[s.rng.IntN(len(s.dirs))] + "/" + s.word() + ".go"
}

// memory returns the i-th synthetic memory.
func (s *synth) memory(i int) *memory.Memory {
	name := s.name(i)
	types := memory.Types
	h := memory.Header{
		Name:        name,
		Description: truncateRunes(upperFirst(s.sentence(6+s.rng.IntN(10))), memory.MaxDescriptionLen),
		Type:        types[s.rng.IntN(len(types))],
		Created:     s.now.Add(-time.Duration(s.rng.IntN(700*24)) * time.Hour),
		Source:      "manual",
		Confidence:  float64(5+s.rng.IntN(6)) / 10,
		Tags:        []string{s.word(), s.word()},
	}
	h.Updated = h.Created
	for range s.rng.IntN(3) {
		h.Anchors.Files = append(h.Anchors.Files, memory.FileAnchor{Path: s.file(), SHA256: "0123456789abcdef"})
	}
	var body strings.Builder
	for range 2 + s.rng.IntN(4) {
		body.WriteString(upperFirst(s.sentence(8+s.rng.IntN(12))) + ". ")
	}
	for range s.rng.IntN(3) {
		fmt.Fprintf(&body, "See [[%s]]. ", s.name(s.rng.IntN(s.n)))
	}
	return memory.New(h, body.String())
}

// query returns a query like an agent's prompt: a few words of some
// memory's topic, sometimes with a file.
func (s *synth) query() (string, []string) {
	text := s.sentence(3 + s.rng.IntN(6))
	var files []string
	if s.rng.IntN(4) == 0 {
		files = []string{s.file()}
	}
	return text, files
}

// writeVault writes n synthetic memories into dir.
func (s *synth) writeVault(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := range s.n {
		m := s.memory(i)
		if err := os.WriteFile(filepath.Join(dir, m.Name+".md"), m.Render(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n]))
}
