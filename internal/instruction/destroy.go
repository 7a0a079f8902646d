package instruction

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// destroyRE matches, at the start of lower-cased text, a command that
// destroys what no checkout gives back: the home folder or the root, a
// disk, the remote's history, local work, the infrastructure. rm -rf
// build/ is not one: it removes what the repository makes.
var destroyRE = lazyregexp.New(`^(?:sudo\s+(?:-\S+\s+)*)?(?:` +
	`rm\s+(?:-\S+\s+)+(?:--no-preserve-root\s+)?["']?(?:/|~|\$home|\$\{home\}|\.\.)(?:["'\x60\s/]|$)` +
	`|git\s+push\s+(?:\S+\s+)*?(?:--force\b|-f\b|--force-with-lease\b|\+\S)` +
	`|git\s+reset\s+--hard\s+(?:origin|upstream)\b` +
	`|dd\s+(?:\S+\s+)*?of=/dev/` +
	`|mkfs\b|shred\s|wipefs\s` +
	`|terraform\s+destroy\b|kubectl\s+delete\s+(?:ns|namespace|--all)\b|drop\s+(?:database|schema|table)\b)`)

// copulaRE tells a clause about a command ("git push --force is blocked")
// from the command given bare.
var copulaRE = lazyregexp.New(`\s(?:is|are|was|were|isn't|aren't|wasn't|would|will|can|cannot)\s`)

// destroys reports whether rest, a clause from its verb on, runs a
// destructive command ([destroyRE]): after a verb that runs one ("run",
// "use"), or given bare ("rm -rf ~", after "To clean the cache:").
func destroys(verb, obj, rest string) bool {
	if runVerbs[verb] || verb == "use" {
		return destroyRE.MatchString(strings.TrimLeft(obj, "`\"' "))
	}
	return destroyRE.MatchString(rest) && !copulaRE.MatchString(rest)
}
