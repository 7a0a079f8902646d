package transcript_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// session is a transcript whose last line is still being written.
const session = `{"type":"user","uuid":"u1","sessionId":"s1","cwd":"/w","version":"2.1.39","timestamp":"2026-11-30T10:00:00Z","message":{"role":"user","content":"run the tests; my token is ghp_` + `8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"}}
{"type":"assistant","uuid":"a1","requestId":"r1","timestamp":"2026-11-30T10:00:05Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go test ./..."}}]}}
{"type":"user","uuid":"u2","timestamp":"2026-11-30T10:00:09Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok  \tshop\t0.2s"}]}}
{"type":"assistant","uuid":"a2","requestId":"r2","message":{"id":"m2","role":"assistant","conte`

func ExampleReader() {
	r := transcript.NewReader(strings.NewReader(session), 0)
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Println(e.Type, e.UUID, e.Offset, e.End)
	}
	// The next job starts where this one stopped: before the unfinished line.
	fmt.Println("resume at", r.Offset(), "pending", r.Stats().Pending)
	// Output:
	// user u1 0 216
	// assistant a1 216 434
	// user u2 434 606
	// resume at 606 pending 95
}

func ExampleBuild() {
	r := transcript.NewReader(strings.NewReader(session), 0)
	d, err := transcript.Build(context.Background(), r, transcript.Options{
		Redact: redact.New(redact.Options{}).String,
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(d.String())
	// Output:
	// # session digest
	// session: s1
	// cwd: /w
	// claude-code: 2.1.39
	// time: 2026-11-30T10:00:00Z to 2026-11-30T10:00:09Z
	//
	// ## turn 1 (2026-11-30T10:00:00Z)
	// user: run the tests; my token is [REDACTED:github-token]
	// tool: Bash `go test ./...` -> ok
	//   | ok  	shop	0.2s
}
