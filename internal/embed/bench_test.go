package embed

import (
	"context"
	"fmt"
	"strconv"
	"testing"
)

var benchTurn = "Caroline: I went to a LGBTQ support group yesterday and it was so powerful, " +
	"the stories people shared about their journeys really inspired me to keep going."

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load(); err != nil {
			b.Fatal(err)
		}
	}
}

func benchEmbed(b *testing.B, texts []string) {
	m := mustLoad(b)
	ctx := context.Background()
	if _, err := m.Vectors(ctx, texts); err != nil { // decode the weights
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := m.Vectors(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmbedQuestion(b *testing.B) {
	benchEmbed(b, []string{"When did Caroline go to the LGBTQ support group?"})
}

func BenchmarkEmbedTurn(b *testing.B) { benchEmbed(b, []string{benchTurn}) }

func BenchmarkEmbed100(b *testing.B) {
	texts := make([]string, 100)
	for i := range texts {
		texts[i] = benchTurn[:40+i%60]
	}
	benchEmbed(b, texts)
}

// BenchmarkColdQuestion is what a hook pays: load, decode, one question.
func BenchmarkColdQuestion(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		m, err := Load()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Vectors(ctx, []string{"When did Caroline go to the LGBTQ support group?"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbedQuestionResident is [BenchmarkEmbedQuestion] with the
// matrices decoded once (see [LoadResident]): what the MCP server pays.
func BenchmarkEmbedQuestionResident(b *testing.B) {
	m := mustLoadResident(b)
	ctx := context.Background()
	q := []string{"When did Caroline go to the LGBTQ support group?"}
	if _, err := m.Vectors(ctx, q); err != nil { // decode the weights
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := m.Vectors(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkColdQuestionResident is [BenchmarkColdQuestion] decoding every
// matrix first: the MCP server's first query.
func BenchmarkColdQuestionResident(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		m, err := LoadResident()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Vectors(ctx, []string{"When did Caroline go to the LGBTQ support group?"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQueryTokens embeds a query cut at n tokens, the matrices read
// as stored and decoded once: an encoder's work grows with its tokens.
func BenchmarkQueryTokens(b *testing.B) {
	ctx := context.Background()
	q := "caroline go lgbtq support group yesterday powerful stories people shared journeys inspired keep going"
	for _, c := range []struct {
		name string
		m    *Model
	}{{"stream", mustLoad(b)}, {"resident", mustLoadResident(b)}} {
		for _, n := range []int{2, 4, 8, 16} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				if _, err := c.m.embedQuery(ctx, q, n); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if _, err := c.m.embedQuery(ctx, q, n); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkQueryTokensEvicted is [BenchmarkQueryTokens] of the resident
// model with 32 MB of other reads before each query, out of the timing:
// the MCP server's query comes after a recall's scan of the vectors and
// what else it read, which pushed the weights out of the caches.
func BenchmarkQueryTokensEvicted(b *testing.B) {
	ctx := context.Background()
	q := "caroline go lgbtq support group yesterday powerful stories people shared journeys inspired keep going"
	m := mustLoadResident(b)
	other := make([]byte, 32<<20)
	for i := range other {
		other[i] = byte(i)
	}
	var sink byte
	for _, n := range []int{2, 4, 8, 16} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			if _, err := m.embedQuery(ctx, q, n); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				b.StopTimer()
				for i := 0; i < len(other); i += 64 {
					sink += other[i]
				}
				b.StartTimer()
				if _, err := m.embedQuery(ctx, q, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	if sink == 1 {
		b.Log(sink) // keeps the reads
	}
}
