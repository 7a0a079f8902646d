package embed

import (
	"context"
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
