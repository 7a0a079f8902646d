package provenance

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// Lifting a guard, in any mood: what [LiftsGuard] recognises. A fact that
// speaks of a check turned off ("`make test` only passes with the sandbox
// disabled", "the build works once TLS verification is off") carries no
// value and gives no instruction, yet recalled it leads an agent to turn
// the check off; only the person can vouch for it.
var (
	// What a guard is called: sandboxing, verification, tests, hooks,
	// permissions, TLS and certificate checks, signing, security checks.
	guardNounRE = `(?:sandbox\w*|verif\w*|tests?|test suite|checks?|hooks?|pre-commit|husky|permissions?|permission prompts?|` +
		`approvals?|confirmations?|tls|ssl|https|certs?|certificates?|signing|signatures?|signed commits|gpg|` +
		`lint\w*|type ?checks?|security|safety|guardrails?|firewall|host key\w*|auth\w*|csrf|cors|validation)`
	// The words that lift one, before it ("disable the sandbox",
	// "without signing", "bypassing hooks") or after it ("the sandbox
	// disabled", "verification is off", "tests skipped").
	liftBefore = `(?:disabl\w*|skip\w*|bypass\w*|turn\w* off|switch\w* off|shut\w* off|without|ignor\w*|deactivat\w*|` +
		`suppress\w*|circumvent\w*|evad\w*|avoid\w*|sidestep\w*|remov\w*|no longer)`
	liftAfter = `(?:disabled|off|skipped|bypassed|ignored|deactivated|suppressed|removed|turned off|switched off|` +
		`not enforced|not required|not run)`
	liftRE = lazyregexp.New(`\b` + liftBefore + `\s+(?:\S+\s+){0,3}?` + guardNounRE + `\b` +
		`|\b` + guardNounRE + `\s+(?:\S+\s+){0,2}?` + liftAfter + `\b`)
	// Switches and variables that lift a guard by their name alone.
	liftFlagRE = lazyregexp.New(`--no-verify\b|--no-gpg-sign\b|--force\b|--force-with-lease\b|\bpush\b[^\n]*\s-f\b|--insecure\b|--skip-[a-z-]+|` +
		`--no-[a-z-]*(?:check|verify|sandbox|sign|hook|test|lint)[a-z-]*|--disable-[a-z-]+|--dangerously-[a-z-]+|` +
		`--allow-unauthenticated\b|--allow-insecure[a-z-]*|--trusted-host\b|--unsafe[a-z-]*|--privileged\b|` +
		`git_ssl_no_verify|node_tls_reject_unauthorized|pythonhttpsverify|curl_insecure|sslverify\s*=?\s*false|` +
		`stricthostkeychecking\s*=?\s*no|verify\s*=\s*false|--ignore-(?:scripts-)?(?:errors|failures)|\|\|\s*true\b`)
)

// LiftsGuard returns the words of text that lift a guard (turn off,
// skip or bypass the sandbox, a verification, the tests, hooks,
// permissions, TLS or certificate checks, signing; or name a switch such
// as --no-verify or --force), or "" when it lifts none. It judges any
// mood: a statement lifts a guard as well as an instruction does.
func LiftsGuard(text string) string {
	l := " " + strings.ToLower(text) + " "
	for _, re := range [...]*lazyregexp.Regexp{liftFlagRE, liftRE} {
		if m := re.FindStringSubmatch(l); m != nil {
			return strings.TrimSpace(m[0])
		}
	}
	return ""
}
