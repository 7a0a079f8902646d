package recall

import (
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Config holds the ranking's parameters. [DefaultConfig] is what mnemo
// ships; the numbers were tuned on the LoCoMo development file and on
// hand-made ranking tests.
type Config struct {
	// Weights are the BM25 column weights of the word index.
	Weights index.Weights

	// FuseScores fuses the lists by score: a memory gets weight × its score
	// divided by the list's best score from each list it is in. Without it,
	// the lists are fused by reciprocal rank: weight/(FuseK+rank). Rank
	// fusion suits lists whose scores do not compare (an embedding search);
	// on LoCoMo it loses to score fusion (R@5 41 at FuseK 60, 62 at FuseK 1,
	// against 62.3), because ranks flatten BM25's gaps and the boosts then decide.
	FuseScores bool
	FuseK      float64
	// List weights in the fusion.
	WordsWeight, SubstringsWeight, FilesWeight float64
	// DirWeight scales a memory anchored to another file of a folder the
	// query names, against one anchored to the file itself.
	DirWeight float64

	// Semantic embeds queries for recall by meaning (package embed's
	// model); nil turns it off, and so does an index without vectors.
	// Then the memories nearest the query in meaning join the candidates,
	// and every candidate gains its nearness: SemanticWeight × how much
	// its cosine similarity to the query exceeds the query's mean
	// similarity to the vault (0 when it does not), added after link
	// expansion (a memory's meaning is its own, not its neighbours'). A
	// vague query sits near everything: measured from the mean, it is
	// near nothing in particular. On the LoCoMo development file
	// (R@5/R@10/R@25), the words alone score 64.4/75.0/82.6; with the
	// built-in model the nearness at 2.25 68.9/77.2/85.7 (at 2.75
	// 68.1/77.0/86.1), no category below the words alone at any k. 2.25
	// was chosen by two-fold cross-validation over the conversations: it
	// is the best of 2 to 2.75 (mean of R@5 and R@10) on each half alone,
	// and on the other half gains +0.6/+0.7/-0.4 and +0.9/-0.1/-0.5 over
	// 2.75. Tuned before with the model all int8: the
	// plain cosine (weight 2) 67.7/76.5/86.0, the nearness at 3
	// 68.3/76.8/86.1, from 2.5 to 3.25 all within 0.5 points (2.75 was
	// the one where no category lost, on the 4-bit model); z-scores (also
	// dividing by the spread of the query's similarities, which needs
	// every vector) the same within 0.5 points; min-max normalising less
	// (at most 68.1/76.7); reciprocal-rank fusion less than the words
	// alone.
	Semantic       QueryEmbedder `json:"-"`
	SemanticWeight float64
	// SemanticFloor is the cosine a memory no other list found needs to
	// join the candidates: above what queries on other subjects reach
	// (at most 0.23 for English ones against a LoCoMo conversation, 0.37
	// for a made-up word), below what the best turn for one of its
	// questions has in nine cases of ten.
	SemanticFloor float64

	// Candidates is how many memories each list contributes, at least
	// twice the query's limit.
	Candidates int
	// The commonest query words are dropped past max(CommonDocs,
	// CommonShare × all memories) memories holding them: see [index.WordQuery].
	CommonDocs  int
	CommonShare float64

	// TypeBoost multiplies the score of each type; a missing type counts 1.
	TypeBoost map[memory.Type]float64
	// ConfidenceFloor is the factor of a memory of confidence 0; confidence
	// 1 gives 1, linear in between.
	ConfidenceFloor float64
	// RecencyBoost is the extra factor of a memory updated just now, halved
	// every HalfLife of age.
	RecencyBoost float64
	HalfLife     time.Duration
	// HistoryBoost is the extra factor per doubling of times recalled, up
	// to HistoryMax in all.
	HistoryBoost, HistoryMax float64
	// Factors of memories flagged by [Config.Suspect] and of superseded ones.
	SuspectFactor, SupersededFactor float64

	// LinkDiscount is the share of a memory's relevance that each memory
	// it links to, or that links to it, receives; LinkFrom is how many of
	// the best memories pass relevance on. 0 turns link expansion off.
	LinkDiscount float64
	LinkFrom     int

	// Suspect reports whether a memory is suspect and why (the staleness
	// check supplies it); nil means none is.
	Suspect func(index.Key) (reason string, ok bool)
}

// DefaultConfig returns the ranking mnemo ships.
func DefaultConfig() Config {
	return Config{
		Weights:          index.Weights{Name: 2, Description: 4, Body: 1, Tags: 2, Files: 2, Context: 0.5},
		FuseScores:       true,
		FuseK:            10,
		WordsWeight:      1,
		SubstringsWeight: 0.5,
		SemanticWeight:   2.25,
		SemanticFloor:    0.4,
		FilesWeight:      1.5,
		DirWeight:        0.3,
		Candidates:       30,
		CommonDocs:       1500,
		CommonShare:      0.05,
		TypeBoost: map[memory.Type]float64{
			memory.TypeUser: 1.1, memory.TypeFeedback: 1.15,
			memory.TypeProject: 1, memory.TypeReference: 0.95,
		},
		ConfidenceFloor:  0.5,
		RecencyBoost:     0.2,
		HalfLife:         90 * 24 * time.Hour,
		HistoryBoost:     0.03,
		HistoryMax:       1.15,
		SuspectFactor:    0.5,
		SupersededFactor: 0.25,
		LinkDiscount:     0.25,
		LinkFrom:         10,
	}
}
