// Command mnemo is a memory layer for AI coding agents. See the README.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/mnemo-dev/mnemo/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], cli.Stdio())
	stop()
	os.Exit(code)
}
