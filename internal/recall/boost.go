package recall

import (
	"fmt"
	"math"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// boost returns the product of a candidate's factors and records each one
// that is not 1 in its explanation; periods are the dates the query names.
func (e *Engine) boost(c *candidate, now time.Time, periods []period) float64 {
	d := c.doc
	f := 1.0
	add := func(name string, v float64, detail string) {
		if v != 1 {
			f *= v
			c.why.Boosts = append(c.why.Boosts, Part{Name: name, Value: v, Detail: detail})
		}
	}
	if v, ok := e.cfg.TypeBoost[d.Type]; ok {
		add("type", v, string(d.Type))
	}
	conf := min(max(d.Confidence, 0), 1)
	add("confidence", e.cfg.ConfidenceFloor+(1-e.cfg.ConfidenceFloor)*conf, fmt.Sprintf("%.2g", d.Confidence))
	if !now.IsZero() && !d.Updated.IsZero() && e.cfg.HalfLife > 0 {
		age := max(now.Sub(d.Updated), 0)
		v := 1 + e.cfg.RecencyBoost*math.Exp2(-float64(age)/float64(e.cfg.HalfLife))
		add("recency", v, "updated "+d.Updated.Format(time.DateOnly))
	}
	if p, when, ok := dated(periods, d.Created, d.Updated, e.cfg.DateSlack); ok {
		add("date", 1+e.cfg.DateBoost, "written "+when.Format(time.DateOnly)+", the query names "+p.String())
	}
	if d.Recalls > 0 {
		v := min(1+e.cfg.HistoryBoost*math.Log2(1+float64(d.Recalls)), e.cfg.HistoryMax)
		add("history", v, fmt.Sprintf("recalled %d×, last %s", d.Recalls, d.LastRecalled.Format(time.DateOnly)))
	}
	if e.cfg.Suspect != nil {
		if reason, ok := e.cfg.Suspect(d.Key); ok {
			c.why.Suspect = reason
			add("suspect", e.cfg.SuspectFactor, reason)
		}
	}
	if d.Status == memory.StatusSuperseded {
		detail := "superseded"
		if d.SupersededBy != "" {
			detail += " by " + d.SupersededBy
		}
		add("superseded", e.cfg.SupersededFactor, detail)
	}
	return f
}
