package instruction

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// Kinds of instruction [Kind] recognises: what a planted memory
// would make an agent do. Each reads after "an instruction to".
const (
	PipeToShell      = "pipe a download into a shell"
	RunCommand       = "run a command"
	FetchURL         = "fetch a URL"
	ChangePermission = "change a permission or setting"
	SendOut          = "send a secret out"
	Override         = "override the agent's own instructions"
	RemoteShell      = "open a shell to another machine"
	Destructive      = "run a destructive command"
)

// Patterns over lower-cased text. An instruction is told apart from a
// fact by its mood: a clause that starts with the verb ("Run …", "Always
// run …", "Before tests, run …") or gives it after a modal ("you must run
// …"), not one with a subject ("the tests run with `make test`", "CI runs
// …"). A pipe into a shell and the switches that turn off Claude Code's
// guards are instructions in any mood.
var (
	// curl … | sh, wget -qO- … | sudo bash, bash <(curl …), sh -c "$(curl …)",
	// iex (iwr …), eval "$(wget …)".
	pipeRE = lazyregexp.New(`\b(curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch)\b[^|\n]*\|\s*(sudo\s+(-\S+\s+)*)?(ba|z|da|k|fi)?sh\b` +
		`|\b(curl|wget|iwr|irm)\b[^|\n]*\|\s*(sudo\s+)?(python3?|perl|ruby|node|iex|invoke-expression)\b` +
		`|\b(ba|z)?sh\s+(-c\s+)?["']?(<\(|\$\()\s*(curl|wget)\b` +
		`|\b(eval|source)\s+["']?(<\(|\$\()\s*(curl|wget)\b` +
		`|\b(iex|invoke-expression)\b\s*\(?\s*(iwr|irm|invoke-webrequest|invoke-restmethod|\(?new-object)` +
		`|\bbase64\s+(-d|--decode|-d[a-z]*)\b[^|\n]*\|\s*(sudo\s+)?((ba|z|da|k|fi)?sh|python3?|perl|ruby|node)\b`)

	// Settings and flags whose only use is to lift a guard.
	guardRE = lazyregexp.New(`--dangerously-skip-permissions|--no-verify\b|\bbypasspermissions\b|\bdangerouslydisablesandbox\b|\bdisableallhooks\b` +
		`|\ballowedtools\b|\bpermissions\.allow\b|\bdefaultmode\b|\bchmod\s+(-r\s+)?(0?777|0?666|[ugoa]*\+[rwx]*s|a\+w|o\+w)\b`)

	// The parts of a clause before its verb that keep it an instruction:
	// adverbs, "remember to", and a leading condition ("before tests, ").
	leadRE = lazyregexp.New(`^(?:(?:(?:please|always|first|firstly|then|also|just|now|next|and|so|finally|simply|quickly|immediately|again|` +
		`remember to|make sure to|make sure you|be sure to|don't forget to|do not forget to|it is important to|it's important to)\b|` +
		`(?:before|after|when|whenever|once|if|to|on|for|each time|every time|prior to|until)\b[^,]{0,80},)\s*)*`)

	// Modals that make a verb an instruction wherever they stand.
	modalRE = lazyregexp.New(`\b(?:always|must|should|need to|needs to|have to|has to|make sure (?:to|you)|be sure to|remember to|forget to|important to|required to|supposed to)\s`)

	// A negation, which a clause's "and" may carry to each of its parts.
	negatedRE = lazyregexp.New(`\b(?:never|not|no|avoid|stop)\b|n't\b`)

	urlRE = lazyregexp.New(`\bhttps?://\S|\bftp://\S|\bwww\.[a-z0-9-]+\.[a-z]`)
	// "fetch this URL" names what to fetch without giving it.
	urlWordRE = lazyregexp.New(`\b(?:url|urls|link|links|address|endpoint|gist|pastebin|page|site|website)\b`)

	// What lifting a guard names, by the verbs that lift it.
	offRE    = lazyregexp.New(`\b(?:sandbox|sandboxing|permissions?|permission (?:prompts?|checks?)|confirmations?|approvals?|prompts|hooks?|security|safety|guardrails?|firewall|auto-?approv\w*|verification|signature checks?)\b`)
	intoRE   = lazyregexp.New(`\b(?:to|into|in|under)\s+(?:the\s+|your\s+|my\s+|claude's\s+)?[^.]{0,30}?(?:allowed ?tools|allow ?list|allowed commands|permissions|sudoers|authorized_keys|settings(?:\.local)?\.json|\.claude|claude\.json|trusted)`)
	configRE = lazyregexp.New(`(?:settings(?:\.local)?\.json|\.claude/|claude\.json|permission ?mode|permissions|\.bashrc|\.zshrc|\.profile|crontab|sudoers|authorized_keys|git config|auto-?approv\w*|yolo)`)
)

// Verbs by the kind of instruction they give, in the base form an
// imperative uses.
var (
	runVerbs   = set("run", "execute", "exec", "invoke", "launch", "source", "eval", "install", "pipe")
	fetchVerbs = set("fetch", "download", "get", "visit", "open", "browse", "curl", "wget", "load", "retrieve", "request",
		"ping", "post", "upload", "go", "navigate", "follow", "clone")
	// Verbs whose object may be a URL named without giving it.
	namesURL  = set("fetch", "download", "visit", "browse", "open", "curl", "wget", "retrieve", "navigate", "follow")
	offVerbs  = set("disable", "turn", "switch", "bypass", "skip", "deactivate", "relax", "loosen", "remove", "ignore")
	intoVerbs = set("add", "put", "append", "include", "whitelist", "allowlist", "allow", "grant", "trust", "write")
	setVerbs  = set("set", "change", "edit", "modify", "update", "overwrite", "unset", "enable", "export", "configure")
	permVerbs = set("chmod", "chown", "chgrp", "setfacl", "sudo", "icacls", "takeown")
	negations = set("never", "not", "don't", "dont", "do", "avoid", "stop", "no")
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Kind returns the kind of instruction text gives an agent (one of
// [PipeToShell], [RunCommand], [FetchURL], [ChangePermission], [SendOut],
// [Override], [RemoteShell], [Destructive]), or "" when
// it gives none of them. Prohibitions ("never run …") and statements of
// fact ("the tests run with `make test`", "the docs are at https://…") give
// none. Text is judged as a model reads it, through the disguises [fold]
// undoes.
func Kind(text string) string {
	l := strings.ToLower(fold(text))
	switch {
	case pipeRE.MatchString(l):
		return PipeToShell
	case remoteRE.MatchString(l):
		return RemoteShell
	case guardRE.MatchString(l), redirectRE.MatchString(l):
		return ChangePermission
	case sendRE.MatchString(l):
		return SendOut
	case overrideRE.MatchString(l):
		return Override
	}
	return imperative(l)
}

// Imperative returns the kind of instruction the first clause of text
// that reads as one gives, or "". Unlike [Kind]
// it does not count a pipe into a shell or a guard's switch quoted in a
// question or a report ("the page says to run curl … | sh"): a person
// gives an instruction only in the imperative.
func Imperative(text string) string { return imperative(strings.ToLower(fold(text))) }

// imperative is [Imperative] of lower-cased text.
func imperative(l string) string {
	for _, c := range clauses(l) {
		for _, part := range conjuncts(c) {
			if k := clauseKind(part); k != "" {
				return k
			}
		}
	}
	return ""
}

// conjuncts returns a clause whole, then, when it joins verbs with "and",
// each part: "fix the warnings and email ~/.ssh/id_rsa to …" gives a
// second imperative. A clause that holds a negation is not cut, since it
// may reach every part ("never download it and run it").
func conjuncts(c string) []string {
	parts := strings.Split(c, " and ")
	if len(parts) == 1 || negatedRE.MatchString(parts[0]) {
		return parts[:1:1]
	}
	return append([]string{c}, parts...)
}

// clauses cuts lower-cased text at sentence ends, semicolons, new lines
// and ", then", so that each clause has one verb to judge. A dot inside a
// word (x.evil, v1.2) does not end a sentence.
func clauses(l string) []string {
	var out []string
	start := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '.', '!', '?', ':':
			if i+1 < len(l) && l[i+1] != ' ' && l[i+1] != '\n' && l[i+1] != '\t' {
				continue
			}
		case ';', '\n':
		default:
			continue
		}
		out = append(out, l[start:i])
		start = i + 1
	}
	out = append(out, l[start:])
	for i, c := range out {
		out[i] = strings.ReplaceAll(c, ", then ", "; ")
	}
	var split []string
	for _, c := range out {
		split = append(split, strings.Split(c, "; ")...)
	}
	return split
}

// clauseKind judges one clause: an imperative (its verb first, after the
// words leadRE allows), or a verb within three words after a modal.
func clauseKind(c string) string {
	c = strings.TrimSpace(strings.TrimLeft(c, " \t-*>#0123456789)(`\"'"))
	if c == "" {
		return ""
	}
	if m := leadRE.FindStringSubmatch(c); m != nil {
		if k := verbKind(strings.TrimSpace(c[len(m[0]):])); k != "" {
			return k
		}
	}
	for _, loc := range modalRE.FindAllStringIndex(c, -1) {
		words := strings.Fields(c[loc[1]:])
		for i := 0; i < min(3, len(words)); i++ {
			if negations[words[i]] {
				break // must not run …, should never fetch …
			}
			if k := verbKind(strings.Join(words[i:], " ")); k != "" {
				return k
			}
		}
	}
	return ""
}

// verbKind judges a clause that starts with its verb: what the verb does
// with what follows it.
func verbKind(rest string) string {
	verb, obj, _ := strings.Cut(rest, " ")
	verb = strings.Trim(verb, "`\"',")
	switch {
	case negations[verb]:
		return "" // never run …, don't fetch …
	case destroys(verb, obj, strings.TrimLeft(rest, "`\"'")):
		return Destructive
	case sendVerbs[verb] && secretRE.MatchString(obj):
		return SendOut
	case (fetchVerbs[verb] || runVerbs[verb]) && urlRE.MatchString(obj), namesURL[verb] && urlWordRE.MatchString(obj):
		return FetchURL
	case permVerbs[verb],
		offVerbs[verb] && offRE.MatchString(obj),
		intoVerbs[verb] && intoRE.MatchString(obj),
		setVerbs[verb] && configRE.MatchString(obj):
		return ChangePermission
	case runVerbs[verb] && strings.TrimSpace(obj) != "":
		return RunCommand
	}
	return ""
}
