package e2e

// The suite runs a mnemo it builds with `go build` (see buildMnemo), which
// the test cache does not see: without this import a change to mnemo's code
// left `go test ./internal/e2e/` reporting a cached pass. Importing the
// commands' package makes every package of the binary part of the suite's
// cache key.
import _ "github.com/mnemo-dev/mnemo/internal/cli"
