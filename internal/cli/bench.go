package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/bench"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

func newBenchCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure recall (speed at scale, quality on LoCoMo) and the hooks",
		Long: `Benchmarks of the recall engine and of the hooks. They build real vaults in
a temporary folder and go through the same index, ranking and hook code
as 'mnemo recall' and the agent's hooks.`,
		Example: `  mnemo bench scale --n 10000
  mnemo bench locomo ../shared/bench/locomo-dev.json
  mnemo bench hooks --n 1000,10000`,
		Args: exactArgs(0),
	}
	cmd.AddCommand(newBenchScaleCmd(f), newBenchLoCoMoCmd(f), newBenchHooksCmd(f))
	return cmd
}

type benchScaleOptions struct {
	n, queries int
	seed       uint64
	json       bool
}

func newBenchScaleCmd(f *Factory) *cobra.Command {
	var opts benchScaleOptions
	cmd := &cobra.Command{
		Use:   "scale --n N",
		Short: "Time the index and recall on N synthetic memories",
		Long: `Write N synthetic memories (varied vocabulary, links, anchored files) to a
temporary folder, then time a cold index build, a sync that finds nothing
changed, a sync after editing 1% of the files, and recall over many
queries (p50, p95, p99), and report the peak resident memory.`,
		Example: `  mnemo bench scale --n 10000
  mnemo bench scale --n 100000 --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.n <= 0 {
				return usageErrorf("--n must be a positive number of memories")
			}
			if opts.queries <= 0 {
				return usageErrorf("--queries must be positive")
			}
			r, err := bench.RunScale(cmd.Context(), bench.ScaleOptions{
				N: opts.n, Queries: opts.queries, Seed: opts.seed, Config: recall.DefaultConfig(),
				Progress: func(step string) { fmt.Fprintln(f.IO.ErrOut, step+"…") },
			})
			if err != nil {
				return err
			}
			if opts.json {
				return printJSON(f.IO.Out, scaleJSON(r))
			}
			printScale(f.IO.Out, r)
			return nil
		},
	}
	cmd.Flags().IntVar(&opts.n, "n", 0, "how many memories, `N`")
	cmd.Flags().IntVar(&opts.queries, "queries", 1000, "how many recall queries to time")
	cmd.Flags().Uint64Var(&opts.seed, "seed", 1, "seed of the synthetic vault and queries")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func scaleJSON(r *bench.ScaleReport) map[string]any {
	return map[string]any{
		"n": r.N, "build_ms": ms(r.Build), "no_change_sync_ms": ms(r.NoChangeSync),
		"edit_sync_ms": ms(r.EditSync), "edited": r.Edited, "queries": r.Queries,
		"recall_ms":      map[string]float64{"p50": ms(r.P50), "p95": ms(r.P95), "p99": ms(r.P99), "max": ms(r.Max)},
		"index_bytes":    r.IndexBytes,
		"peak_rss_bytes": r.PeakRSS,
		"cpu_ms": map[string]any{
			"build": ms(r.BuildCPU), "no_change_sync": ms(r.NoChangeSyncCPU), "edit_sync": ms(r.EditSyncCPU),
			"recall": map[string]float64{"p50": ms(r.CPUP50), "p95": ms(r.CPUP95), "p99": ms(r.CPUP99)},
		},
	}
}

func printScale(w io.Writer, r *bench.ScaleReport) {
	fmt.Fprintf(w, "scale: %d synthetic memories, index %.1f MB (CPU time in brackets)\n", r.N, float64(r.IndexBytes)/1e6)
	fmt.Fprintf(w, "  cold build               %9.1f ms  [%.1f ms]\n", ms(r.Build), ms(r.BuildCPU))
	fmt.Fprintf(w, "  no-change sync           %9.1f ms  [%.1f ms]\n", ms(r.NoChangeSync), ms(r.NoChangeSyncCPU))
	fmt.Fprintf(w, "  sync after editing 1%%    %9.1f ms  [%.1f ms]  (%d files)\n", ms(r.EditSync), ms(r.EditSyncCPU), r.Edited)
	fmt.Fprintf(w, "  recall p50 / p95 / p99   %.2f / %.2f / %.2f ms  [%.2f / %.2f / %.2f ms]  (%d queries, max %.2f ms)\n",
		ms(r.P50), ms(r.P95), ms(r.P99), ms(r.CPUP50), ms(r.CPUP95), ms(r.CPUP99), r.Queries, ms(r.Max))
	fmt.Fprintf(w, "  peak RSS                 %9.0f MB\n", float64(r.PeakRSS)/1e6)
}

type benchLoCoMoOptions struct {
	file  string
	ks    []int
	json  bool
	words bool // --no-semantic
}

func newBenchLoCoMoCmd(f *Factory) *cobra.Command {
	var opts benchLoCoMoOptions
	var ks string
	cmd := &cobra.Command{
		Use:   "locomo FILE",
		Short: "Score retrieval on the LoCoMo benchmark",
		Long: `Index every dialog turn of each LoCoMo conversation in FILE as a memory
(its text, speaker and session date; a shared image by its caption), ask
each question through the recall engine, and report recall@k overall and
per question category: the share of a question's evidence turns found in
the top k, averaged over questions. With recall by meaning (unless
--no-semantic or MNEMO_SEMANTIC=off) every turn is embedded first, and the
report adds each list alone: the words (the ranking without meaning) and
the meaning (without the word lists).`,
		Example: `  mnemo bench locomo ../shared/bench/locomo-dev.json
  mnemo bench locomo locomo10.json --k 5,10,25 --json`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			var err error
			if opts.ks, err = parseKs(ks); err != nil {
				return err
			}
			convs, err := bench.LoadLoCoMo(opts.file)
			if err != nil {
				return err
			}
			bo := bench.LoCoMoOptions{Ks: opts.ks, Config: recall.DefaultConfig()}
			if m := f.Semantic(); m != nil && !opts.words {
				bo.Config.Semantic, bo.Embedder, bo.Lists = m, m, true
			}
			r, err := bench.RunLoCoMo(cmd.Context(), convs, bo)
			if err != nil {
				return err
			}
			if opts.json {
				return printJSON(f.IO.Out, r)
			}
			printLoCoMo(f.IO.Out, r, opts.ks)
			return nil
		},
	}
	cmd.Flags().StringVar(&ks, "k", "5,10,25", "cut-offs, `K,K,...`")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	cmd.Flags().BoolVar(&opts.words, "no-semantic", false, "rank by words alone, without meaning")
	return cmd
}

// parseKs reads "5,10,25": positive, each once, in increasing order.
func parseKs(s string) ([]int, error) {
	var ks []int
	for _, part := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || k <= 0 {
			return nil, usageErrorf("--k %q: each cut-off must be a positive number", s)
		}
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return slices.Compact(ks), nil
}

// loCoMoCategories names LoCoMo's question categories.
var loCoMoCategories = map[string]string{
	"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop", "5": "adversarial",
}

func printLoCoMo(w io.Writer, r *bench.LoCoMoReport, ks []int) {
	fmt.Fprintf(w, "LoCoMo: %d questions, %d conversations, %d turns, %.1f s\n",
		r.Questions, r.Conversations, r.Turns, r.Elapsed.Seconds())
	if len(r.Lists) == 0 {
		printLoCoMoTable(w, r, ks)
		return
	}
	for _, l := range []struct {
		title string
		r     *bench.LoCoMoReport
	}{{"fused (what mnemo ships)", r}, {"words alone", r.Lists["words"]}, {"meaning alone", r.Lists["meaning"]}} {
		if l.r == nil {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", l.title)
		printLoCoMoTable(w, l.r, ks)
	}
}

func printLoCoMoTable(w io.Writer, r *bench.LoCoMoReport, ks []int) {
	fmt.Fprintf(w, "%-16s %9s", "category", "questions")
	for _, k := range ks {
		fmt.Fprintf(w, " %6s", "R@"+strconv.Itoa(k))
	}
	fmt.Fprintln(w)
	row := func(label string, n int, m map[string]float64) {
		fmt.Fprintf(w, "%-16s %9d", label, n)
		for _, k := range ks {
			fmt.Fprintf(w, " %6.1f", m["r@"+strconv.Itoa(k)])
		}
		fmt.Fprintln(w)
	}
	cats := make([]string, 0, len(r.ByCategory))
	for c := range r.ByCategory {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	for _, c := range cats {
		row(strings.TrimSpace(c+" "+loCoMoCategories[c]), r.CategoryQuestions[c], r.ByCategory[c])
	}
	row("overall", r.Questions, r.Overall)
}
