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
	// (R@5/R@10/R@25), before [Config.DateBoost], the words alone score
	// 64.4/75.0/82.6; with the
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
	// DateBoost is the extra factor of a memory written (created or
	// updated) on a day, in a month or in a year the query names ("on 8
	// May, 2023", "in May 2023", "2023-05-08", "in 2023", "in June"),
	// widened by DateSlack on each side: what a memory tells is often
	// written down a few days after it happened. The words of a date
	// seldom appear in the memory that answers a question about it; its
	// date does. On the LoCoMo development file (84 of 755 questions
	// name a date) the default ranking goes from 68.9/77.2/85.7 to
	// 70.5/79.0/86.6 at 3 (1: 70.5/78.6/86.6, 2: 70.7/78.9/86.6, 5:
	// 70.5/78.9/86.6), the words alone from 64.4/75.0/82.6 to
	// 66.2/77.1/83.7; no category loses at any k, and every category
	// stays above the words alone. Two-fold cross-validation over the
	// conversations (26, 30 against 41, 42; of 1, 1.5, 2, 3 and 5, by the
	// mean of R@5 and R@10): the first half chooses 3, which gains
	// +2.1/+2.2/+1.1 on the second; the second chooses 2, which gains
	// +0.9/+0.8/+0.7 on the first. A slack of 0 or 7 days moves R@10 by
	// at most 0.2. Date words left out of the embedded query: -0.1 at
	// R@10; memories of the named days joining the candidates: +0.1
	// (offline).
	//
	// Tried on the word side this round, none kept (the whole file,
	// R@5/R@10/R@25, against 68.9/77.2/85.7 before the dates): the
	// description's weight at 2 or 8, the context's at 1 (76.9 to 77.1
	// at R@10; context 0: 75.3, body 0: 73.7); BM25's k1 and b (0.9-2,
	// 0.4-0.9: within 0.5); Lucene's idf, log(1+(N-n+0.5)/(n+0.5)),
	// which never floors a word held by half the vault (with the dates
	// 71.5/79.0/86.2 at 2, 71.3/79.2/86.2 at 3: R@5 up, R@25 down, every
	// search's scores changed); RM3 feedback from the first 3 to 10 hits' words (5
	// to 20 terms, weight 0.1 to 0.35: at best 77.4 at R@10, most
	// below); pairs of query words next to each other (at best 77.1);
	// query words that are a memory's tag (a speaker's name, whose idf
	// is nothing: multi-hop and open-domain gain 4 to 5 points, but the
	// adversarial questions, which name the wrong speaker, lose 5.5).
	// On the meaning side, each sentence of a memory embedded too, half
	// the best sentence's cosine and half the whole's: 69.3/77.8/86.3
	// (it needs several vectors per memory; not built); the query
	// without the speakers' names: within 0.5. More candidates per list
	// (80, 100: +0.2/+0.3 at R@10) would cost every recall.
	DateBoost float64
	DateSlack time.Duration
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
		DateBoost:        3,
		DateSlack:        3 * 24 * time.Hour,
		HistoryBoost:     0.03,
		HistoryMax:       1.15,
		SuspectFactor:    0.5,
		SupersededFactor: 0.25,
		LinkDiscount:     0.25,
		LinkFrom:         10,
	}
}
