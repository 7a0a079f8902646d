package queue

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkEnqueue times what the stop hook does with the queue: open it
// (with its check of the file), enqueue the session's job, close it, in a
// queue that holds 500 jobs.
func BenchmarkEnqueue(b *testing.B) {
	ctx := context.Background()
	state := b.TempDir()
	q, err := Open(ctx, state, nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 500 {
		if _, err := q.Enqueue(ctx, Job{Session: fmt.Sprintf("old%d", i), Transcript: "/t/old.jsonl", Event: "session-end"}); err != nil {
			b.Fatal(err)
		}
	}
	q.Close()
	i := 0
	for b.Loop() {
		q, err := Open(ctx, state, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := q.Enqueue(ctx, Job{Session: fmt.Sprintf("s%d", i%50), Transcript: "/t/s.jsonl", Event: "session-end"}); err != nil {
			b.Fatal(err)
		}
		if err := q.Close(); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
