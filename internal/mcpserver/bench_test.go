package mcpserver_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// BenchmarkRecallRoundTrip times recall as Claude Code calls it: a
// tools/call over stdio to a server subprocess holding a vault of 10,000
// memories, from the request written to the answer decoded. It reports
// the median and the 99th percentile, the cold first call (which syncs the
// index), and the server's resident memory: idle before the first call,
// right after the run, and idle again once it released the index. Run it with
//
//	go test ./internal/mcpserver -run '^$' -bench RecallRoundTrip -benchtime 2000x
//
// and with MNEMO_MCPSERVER_BIN=<a built mnemo> to measure 'mnemo mcp' itself.
func BenchmarkRecallRoundTrip(b *testing.B) {
	benchRecallRoundTrip(b, newFixture(b, synthVault(10_000), "MNEMO_MCPSERVER_TEST_IDLE=1s"))
}

// BenchmarkRecallRoundTripMeaning is [BenchmarkRecallRoundTrip] with
// recall by meaning: the vault's vectors are computed first (minutes at
// 10,000 memories), then every call embeds its query and scans them. With
// MNEMO_BENCH_STANDIN_VECTORS=1 the vault gets stand-in vectors instead
// (hashed, in seconds): a call costs the same, what it finds differs.
func BenchmarkRecallRoundTripMeaning(b *testing.B) {
	ctx := context.Background()
	files := synthVault(10_000)
	f := newFixture(b, files, "MNEMO_MCPSERVER_TEST_IDLE=1s", semanticEnv+"=1")
	db := f.syncedIndex(ctx)
	var m index.Embedder = standIn{}
	if os.Getenv("MNEMO_BENCH_STANDIN_VECTORS") == "" {
		var err error
		if m, err = embed.Load(); err != nil {
			b.Fatal(err)
		}
	}
	start := time.Now()
	if _, err := db.EmbedMissing(ctx, m, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(time.Since(start).Seconds(), "embed-vault-s")
	benchRecallRoundTrip(b, f)
}

// standIn embeds a text as 512 values drawn from its hash, of length 1.
type standIn struct{}

// ModelID is the built-in model's: the vectors stand in for its.
func (standIn) ModelID() string { return embed.ModelID }

func (standIn) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		h := fnv.New64a()
		h.Write([]byte(t))
		r := rand.New(rand.NewPCG(h.Sum64(), 1))
		v, n := make([]float32, embed.Dim), 0.0
		for j := range v {
			v[j] = float32(r.NormFloat64())
			n += float64(v[j] * v[j])
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(n))
		}
		out[i] = v
	}
	return out, nil
}

func benchRecallRoundTrip(b *testing.B, f *fixture) {
	time.Sleep(200 * time.Millisecond) // settled after the handshake
	idle := rss(b, f.cmd.Process.Pid)
	// Queries do not repeat (the server keeps recent queries' vectors): the
	// first is the cold call's, the rest the loop's.
	queries := synthQueries(10_000)
	ctx := context.Background()
	call := func(q string) time.Duration {
		start := time.Now()
		res, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "recall", Arguments: map[string]any{"query": q}})
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Fatalf("recall(%q): %v %s", q, err, textOf(res))
		}
		return d
	}
	cold := call(queries[0])
	cpu0 := cpuTime(b, f.cmd.Process.Pid)
	self0 := cpuTime(b, os.Getpid())
	var times []time.Duration
	i := 0
	for b.Loop() {
		i++
		times = append(times, call(queries[i%len(queries)]))
	}
	b.ReportMetric(float64((cpuTime(b, f.cmd.Process.Pid)-cpu0).Microseconds())/1000/float64(len(times)), "server-cpu-ms/op")
	b.ReportMetric(float64((cpuTime(b, os.Getpid())-self0).Microseconds())/1000/float64(len(times)), "client-cpu-ms/op")
	slices.Sort(times)
	pct := func(p float64) float64 { return float64(times[int(p*float64(len(times)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(cold.Milliseconds()), "cold-ms")
	b.ReportMetric(float64(idle)/(1<<20), "idle-rss-MB")
	b.ReportMetric(float64(rss(b, f.cmd.Process.Pid))/(1<<20), "busy-rss-MB")
	if os.Getenv(binEnv) == "" {
		time.Sleep(2 * time.Second) // idle again: past the (shortened) idle release
		b.ReportMetric(float64(rss(b, f.cmd.Process.Pid))/(1<<20), "idle-after-rss-MB")
	}

}

// cpuTime reads the CPU time a process has used, user and system, from /proc.
func cpuTime(tb testing.TB, pid int) time.Duration {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		tb.Skipf("no /proc here: %v", err)
	}
	// The fields after the command name, which is in parentheses.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond // clock ticks of 1/100 s
}

// rss reads a process's resident set size from /proc, in bytes.
func rss(tb testing.TB, pid int) int64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		tb.Skipf("no /proc here: %v", err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	tb.Fatal("no VmRSS in /proc status")
	return 0
}

// synthWords is the vocabulary of the synthetic vault: a few hundred
// words drawn with a Zipf distribution, so some are common and most rare.
var synthWords = func() []string {
	base := strings.Fields(`auth billing cache queue deploy frontend backend database migration index schema
		token session cookie header proxy gateway kafka redis postgres sqlite worker cron lockfile pnpm npm yarn
		docker compose helm chart release branch commit review test fixture mock flaky timeout retry backoff
		config secret vault key rotate certificate domain route handler middleware logger metric trace span
		alert oncall runbook incident outage latency throughput budget quota limit page cursor offset batch
		stream event topic partition consumer producer schema registry avro protobuf grpc rest graphql
		webhook callback signature payload encode decode parse render template layout style theme color font`)
	var out []string
	for _, w := range base {
		out = append(out, w)
		for _, suffix := range []string{"s", "ing", "er", "ed"} {
			out = append(out, w+suffix)
		}
	}
	return out
}()

// synthVault writes n memories with varied descriptions and bodies, some
// anchored and some linked, as files for newFixture.
func synthVault(n int) map[string]string {
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 2, uint64(len(synthWords)-1))
	words := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = synthWords[z.Uint64()]
		}
		return strings.Join(ws, " ")
	}
	types := []string{"user", "feedback", "project", "project", "reference"}
	files := make(map[string]string, n)
	for i := range n {
		name := fmt.Sprintf("m%05d-%s", i, strings.ReplaceAll(words(2), " ", "-"))
		body := words(40+r.IntN(40)) + "."
		if i > 0 && r.IntN(5) == 0 {
			body += fmt.Sprintf(" See [[m%05d]].", r.IntN(i))
		}
		m := memory.New(memory.Header{
			Name: name, Description: strings.ToUpper(words(1)[:1]) + words(8 + r.IntN(6))[1:],
			Type: memory.Type(types[r.IntN(len(types))]), Created: now.AddDate(0, 0, -r.IntN(400)),
			Updated: now.AddDate(0, 0, -r.IntN(100)), Source: "manual", Confidence: 0.6 + 0.4*r.Float64(),
		}, body)
		files[".memory/"+name+".md"] = string(m.Render())
	}
	return files
}

// synthQueries are recall queries in the vault's vocabulary.
func synthQueries(n int) []string {
	r := rand.New(rand.NewPCG(3, 4))
	out := make([]string, n)
	for i := range out {
		k := 2 + r.IntN(4)
		ws := make([]string, k)
		for j := range ws {
			ws[j] = synthWords[r.IntN(len(synthWords))]
		}
		out[i] = strings.Join(ws, " ")
	}
	return out
}

// BenchmarkRecallInProcess times the same recall on the same vault with no
// protocol in between: the part of the round trip that is the ranking itself.
func BenchmarkRecallInProcess(b *testing.B) { benchRecallInProcess(b, false) }

// BenchmarkRecallInProcessMeaning is [BenchmarkRecallInProcess] with
// recall by meaning, the vault given stand-in vectors (see
// [BenchmarkRecallRoundTripMeaning]) and the queries embedded by the
// model as the server loads it.
func BenchmarkRecallInProcessMeaning(b *testing.B) { benchRecallInProcess(b, true) }

func benchRecallInProcess(b *testing.B, meaning bool) {
	dir := b.TempDir()
	for name, text := range synthVault(10_000) {
		p := filepath.Join(dir, filepath.Base(name))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	db, err := index.Open(ctx, filepath.Join(b.TempDir(), index.FileName), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.KeepResident() // as the server does
	if _, err := db.Sync(ctx, index.Source{Name: "project", Dir: dir}); err != nil {
		b.Fatal(err)
	}
	cfg := recall.DefaultConfig()
	if meaning {
		if _, err := db.EmbedMissing(ctx, standIn{}, nil); err != nil {
			b.Fatal(err)
		}
		cfg.Semantic = embed.NewLazyResident()
	}
	e := recall.New(db, cfg)
	queries := synthQueries(10_000)
	var times []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if _, err := e.Recall(ctx, recall.Query{Text: queries[i%len(queries)], Limit: 10, Now: now}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		i++
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkCallRoundTrip times a call that does almost nothing (list of
// the empty user vault) over stdio: the protocol's share of a round trip.
func BenchmarkCallRoundTrip(b *testing.B) {
	f := newFixture(b, nil)
	ctx := context.Background()
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		res, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "list", Arguments: map[string]any{"vault": "user"}})
		if err != nil || res.IsError {
			b.Fatalf("list: %v", err)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}
