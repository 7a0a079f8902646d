package approval

// Evidence is what a candidate fact rests on.
type Evidence string

// Kinds of evidence, from the strongest.
const (
	// Stated: the person's own words of the session (typed, answered,
	// rejection feedback), as package provenance checks them.
	Stated Evidence = "stated"
	// Confirmed: a later successful command of the session shows it.
	Confirmed Evidence = "confirmed"
	// Inferred: what an extractor concluded from what happened.
	Inferred Evidence = "inferred"
	// Tool: only tool output claims it (a fetched page, a file's content).
	Tool Evidence = "tool"
)

// The bars of the policy.
const (
	StatedAt    = 0.85 // a stated fact at or above this confidence is active
	ConfirmedAt = 0.9  // a confirmed fact at or above this confidence is active
	InferredCap = 0.8  // the most confidence an inferred fact may carry: below both bars
)

// Bar returns the confidence at or above which a fact resting on e is
// active without review, and false when no confidence makes it so.
func Bar(e Evidence) (float64, bool) {
	switch e {
	case Stated:
		return StatedAt, true
	case Confirmed:
		return ConfirmedAt, true
	}
	return 0, false
}

// Active reports whether a fact resting on e, at confidence, is active
// without review.
func Active(e Evidence, confidence float64) bool {
	bar, ok := Bar(e)
	return ok && confidence >= bar
}

// Cap returns the confidence a fact resting on e may carry: an inferred
// fact or one from tool output at most [InferredCap], the others as given.
func Cap(e Evidence, confidence float64) float64 {
	if e == Inferred || e == Tool {
		return min(confidence, InferredCap)
	}
	return confidence
}

// Of returns the evidence of a fact from what is known of it: from tool
// output first (whatever else it claims, it is not to be trusted), then
// stated, then confirmed, else inferred.
func Of(stated, confirmed, fromToolOutput bool) Evidence {
	switch {
	case fromToolOutput:
		return Tool
	case stated:
		return Stated
	case confirmed:
		return Confirmed
	}
	return Inferred
}
