package extract

import (
	"regexp"
	"strings"
)

// A kind says what a sentence of a prompt states.
type kind int

const (
	kindNone       kind = iota
	kindDirective       // an instruction meant to last: always, never, don't, from now on
	kindConvention      // how the project does things: we use, in this repo
	kindPreference      // the user's own taste: I prefer, I'd rather
	kindDecision        // a choice made: we decided, let's go with … because
	kindIdentity        // who the user is: I'm a backend engineer
	kindReference       // where something lives: the runbook is at <url>
)

// rules are the patterns of the heuristic extractor, compiled once by
// [NewHeuristic]. They match sentences folded by [lower].
type rules struct {
	lead          string // discourse markers a sentence may start with
	rememberOnly  *regexp.Regexp
	rememberLead  *regexp.Regexp
	rememberIn    *regexp.Regexp
	rememberTail  *regexp.Regexp
	directive     *regexp.Regexp
	notDirective  *regexp.Regexp
	noVerb        *regexp.Regexp
	convention    *regexp.Regexp
	preference    *regexp.Regexp
	decision      *regexp.Regexp
	letsDecide    *regexp.Regexp
	rationale     *regexp.Regexp
	identity      *regexp.Regexp
	reference     *regexp.Regexp
	url           *regexp.Regexp
	transient     *regexp.Regexp
	lasting       *regexp.Regexp
	correction    *regexp.Regexp
	generalizes   *regexp.Regexp
	newPoint      *regexp.Regexp
	todo          *regexp.Regexp
	todoMarker    *regexp.Regexp
	todoHeading   *regexp.Regexp
	notTodo       *regexp.Regexp
	pathToken     *regexp.Regexp
	projectMarker *regexp.Regexp
	codeNoun      *regexp.Regexp
	toUser        *regexp.Regexp
	oneOff        *regexp.Regexp
	problem       *regexp.Regexp
	vagueProblem  *regexp.Regexp
	fixed         *regexp.Regexp
	waitsForInput *regexp.Regexp
	agentManner   *regexp.Regexp
	whichQuestion *regexp.Regexp
}

func newRules() *rules {
	lead := `^(?:(?:please|also|and|but|so|ok|okay|oh|btw|by the way|note|just|again|one more thing|another thing|and also|oh and|important)[,:;]?\s+)*`
	re := regexp.MustCompile
	return &rules{
		lead: lead,
		// "Remember that." / "Please remember this for next time!"
		rememberOnly: re(lead + `(?:please\s+)?(?:remember|note|memori[sz]e|keep in mind|don't forget)\s*(?:that|this|it|these|those)?\s*(?:for (?:next time|the future|later|future sessions))?\s*[.!]*$`),
		// "Remember that the staging DB is read-only." "Keep in mind: …"
		rememberLead: re(lead + `(?:please\s+)?(?:remember|keep in mind|note for (?:the )?future|for future reference|(?:don't|do not) forget (?:that|this)|make a note|memori[sz]e)(?:\s+(?:that|this))?\s*[:,]?\s+(.{6,})`),
		// "…, remember that." "… — keep this in mind for next time!"
		rememberTail: re(`(?:[\s,;:—–-]+|\.\s+)(?:(?:and|so|please|ok)\s+)*(?:remember (?:that|this|it)|keep (?:that|this|it) in mind|(?:don't|do not) forget (?:that|this|it)|note (?:that|this)|for future reference)(?:\s+(?:for (?:next time|the future|later|future sessions)|going forward|from now on))?\s*[.!]*$`),
		rememberIn:   re(`\b(?:please remember|remember (?:this|that)|keep (?:this|that) in mind|for future reference|for next time|note (?:this|that) for (?:next time|the future))\b`),
		directive: re(`(?:^|[;:—]\s*|\s-\s|,\s*(?:and|but|so)\s+|\b(?:and|but|so)\s+)` + strings.TrimPrefix(lead, "^") +
			`(?:always|never|don't|dont|do not|avoid|prefer|make sure (?:to|you)|be sure to|from now on|going forward|in (?:the )?future|no more|stop \w+ing|only ever|under no circumstances|use \S+(?: \S+)? (?:instead of|rather than|over|not)\b)` +
			`|\b(?:you should|you must|you need to|you have to) (?:always|never)\b|\b(?:from now on|going forward|in (?:the )?future)\b|, (?:always|never)[.!]*$`),
		noVerb:       re(`^(?:always|never) (?:the|a|an|this|that|these|those|my|your|our|same)\b`),
		notDirective: re(`\bnever mind\b|\b(?:don't|dont|do not) (?:worry|bother|mind|know|think|understand|see|get|care|need|have|stop|forget to|hesitate|want|remember|like|believe|expect)\b`),
		convention: re(`\bwe(?:'re| are)? (?:use|using|prefer|avoid)\b|\bwe (?:always|never) (?:use|write|run|put|keep|commit|deploy|ship|name|call|import|test|mock|squash|rebase|merge|tag|pin|vendor|prefix|format)\b` +
			`|\bwe (?:only|don't|do not) (?:use|allow|support|commit|write|ship|deploy|put|import|run|call|mock|vendor|merge)\b|\bwe (?:should|must) (?:always|never)\b` +
			`|\bour (?:convention|rule|policy|style|standard|approach)\b|\bthe convention (?:here |in this \w+ )?is\b` +
			`|\bthis (?:repo|repository|project|codebase) (?:uses|is using|doesn't use|does not use|has no|never)\b|\bhere we (?:use|always|never|don't)\b`),
		preference: re(`\bi (?:prefer|'d prefer|would prefer|like it when|don't like|do not like|hate it when|dislike|'d rather|would rather|want you to (?:always|never))\b|\bmy preference\b|\bi (?:always|never) (?:want|use|write|run)\b`),
		decision:   re(`\b(?:we|i)(?:'ve| have)? (?:decided|chose|chosen|picked|settled on|agreed)\b|\bdecision(?: is)?:|\bwe(?:'re| are) going with\b`),
		letsDecide: re(`\b(?:let's|let us|we'll|we will|we're going to|we are going to) (?:go with|stick with|keep|use|stay with|switch to|move to|drop)\b`),
		rationale:  re(`\b(?:because|since|so that|as it|as they|due to|given that|otherwise)\b`),
		identity:   re(`\bi(?:'m| am) (?:a|an|the) (?:[\w-]+ ){0,3}(?:engineer|developer|designer|scientist|analyst|manager|lead|architect|student|researcher|sre|devops|maintainer|founder|cto)\b`),
		reference:  re(`\b(?:docs?|documentation|dashboard|runbook|wiki|tracker|board|tickets?|grafana|sentry|jira|linear|notion|confluence|spec|design doc|status page|logs are)\b`),
		url:        re(`https?://\S+`),
		transient: re(`\b(?:yet|for now|right now|this time|at the moment|for the moment|today|tonight|until (?:i|we)|anything else|just this once)\b` +
			`|\b(?:in|for) this (?:pr|change|commit|task|session|ticket|step|one|file)\b`),
		lasting:     re(`\b(?:from now on|going forward|in general|in this (?:repo|repository|project|codebase)|for (?:all|every) (?:future )?(?:sessions?|changes?)|as a rule|house rules?|our conventions?)\b`),
		correction:  re(lead + `(?:no|nope|wrong|incorrect|not like that|not that|that's (?:wrong|not (?:right|it|what))|this is (?:wrong|not)|actually|instead|i said|i told you|i asked (?:you )?(?:to|for)|why did you|you shouldn't have|you should not have|don't do that|undo (?:that|this)|revert (?:that|this))\b[,.!:]?`),
		generalizes: re(`\b(?:use|using|instead|should|shouldn't|not|don't|never|always|prefer|must|only)\b`),
		newPoint:    re(`^(?:also|and also|another thing|one more thing|oh and|besides|separately|unrelated|btw|by the way)\b`),
		todo: re(`\bstill (?:needs?|has to|have to|missing|to do|doesn't|does not|isn't|is not|fails?|broken)\b|\bnot yet\b|\b(?:doesn't|does not|don't|do not|isn't|is not|aren't|are not|hasn't|has not|haven't|have not|wasn't|won't) [^.;]*\byet\b` +
			`|\byet to be\b|\bleft to do\b|\bremaining (?:work|issue|step)s?\b|\bremains? to be\b|\bfollow-?ups?\b|\bnext steps?\b|\bwill need to\b|\bneeds? to be (?:done|added|implemented|fixed|handled|wired|updated)\b` +
			`|\bnot (?:implemented|handled|covered|supported) (?:yet|so far)\b|\bknown (?:issue|limitation)s?\b|\bunresolved\b|\b(?:couldn't|could not|wasn't able to|was not able to|was unable to) (?:fix|get|resolve|make|reproduce|figure)\b|\bout of scope\b`),
		todoMarker:  re(`(?:^|\s)(?:TODO|FIXME|XXX)(?:\(\w+\))?\s*[:—-]|(?i:^to-?do:)`),
		todoHeading: re(`^(?:#+\s*)?\**(?:next steps?|todo|todos|remaining(?: work)?|follow-?ups?|open questions|known issues|limitations|not done|left to do)\**:?\**$`),
		notTodo:     re(`\b(?:would you like|do you want|let me know|if you (?:want|like|need)|you can now|feel free|shall i|should i)\b|\?$`),
		pathToken:   re("(?:^|[\\s`'\"(])((?:\\.{0,2}/)?[\\w.@-]+(?:/[\\w.@-]+)*/?)"),
		codeNoun:    re(`\b(?:errors?|exceptions?|tests?|functions?|components?|modules?|packages?|imports?|files?|folders?|directory|class(?:es)?|types?|interfaces?|variables?|logs?|logging|requests?|responses?|endpoints?|apis?|database|db|migrations?|quer(?:y|ies)|schemas?|tables?|commits?|branch(?:es)?|dependenc(?:y|ies)|lockfiles?|builds?|deploys?|releases?|config(?:uration)?|secrets?|handlers?|routes?|styles?|css|code|comments?|docs?|readme)\b`),
		// A report that something of the project misbehaves.
		problem: re(`\S\s+(?:still\s+)?(?:does not|doesn't|do not|don't|will not|won't|is not|isn't|are not|aren't|can't|cannot|never)\s+(?:work|load|render|scroll|show|display|start|compile|build|connect|respond|save|update|refresh|open|close|appear|trigger|fire)\w*\b` +
			`|\b(?:is|are) (?:still )?broken\b|\bstill (?:fails?|failing|broken|crash(?:es|ing)?|hangs?|not working)\b|\b(?:stopped|stops) working\b`),
		// A report with no subject of its own: "that doesn't work".
		vagueProblem: re(`^(?:(?:no|hmm|ugh|nope|but|still)[,.!]?\s+)*(?:that|this|it|your \w+|the (?:fix|change|patch))\s+(?:still\s+)?(?:does|do|is|will|won|isn|can|never|stopped)`),
		// Prose saying a command stopped to ask something.
		waitsForInput: re(`\b(?:waiting for (?:input|an? (?:answer|response|reply|confirmation|selection))|(?:is|was|it's|seems) (?:still )?interactive|interactive (?:prompts?|questions?|mode|input)|prompt(?:s|ed|ing)? (?:for|about|me|us)|asks? (?:for|about) (?:input|confirmation)|needs? (?:input|an answer|confirmation)|stuck (?:at|on) (?:a|the) prompt)\b`),
		// Words saying a problem was fixed.
		fixed: re(`\b(?:fixed|works now|now works|working now|now working|resolved|solved|that did it|that did the trick)\b`),
		// Questions whose answer holds for this moment only.
		oneOff: re(`\b(?:proceed|go ahead|continue|ready|right now|this time|just this once|try again|retry|shall i (?:start|begin|do it|run it)|should i (?:start|begin|do it|run it|commit (?:this|it|now)|push (?:this|it|now)))\b|\bnow\?`),
		// Questions about how the agent should work with the user.
		agentManner: re(`\b(?:should i|shall i|do you want me to|would you like me to|how (?:should|do you want) (?:me|i))\b.*\b(?:always|every time|each time|from now on|in future|explain|report|summari[sz]e|ask|confirm|respond|reply|notify|tell you|show you)\b`),
		// "Which tools should we set up", "What rig do these beads belong to".
		whichQuestion: re(`(?i)^(?:which|what)\s+(\S+(?:\s+\S+)?)\s+(do|does|did|should|shall|will|would|can|could|must)\s+(we|i|you|they|these \S+|those \S+|the \S+|this \S+|it)\s+(.+)$`),
		// Words of how the agent works with the user: asking, telling,
		// saying it is done.
		toUser: re(`\b(?:me|my|i|ask|explain|tell|show|summari[sz]e|answer|reply|respond|confirm|check with|apologi[sz]e|apologi[sz]ing)\b` +
			`|\b(?:before|until|when) you (?:say|claim|report|tell|finish|stop|hand|are done|'re done)\b|\byou(?:'re| are) done\b`),
		projectMarker: re("`|\\bhere\\b|\\bthis (?:repo|repository|project|codebase)\\b|\\b[\\w.-]+/[\\w./-]*|\\b[\\w-]+\\.(?:go|ts|tsx|js|py|rs|rb|ex|exs|java|kt|swift|sql|yaml|yml|json|toml|md|sh|css|html)\\b"),
	}
}

// classify says what a sentence states and whether it asks to be
// remembered. Questions state nothing.
func (r *rules) classify(s string) (k kind, remember bool) {
	l := lower(s)
	if strings.HasSuffix(l, "?") {
		return kindNone, false
	}
	remember = r.rememberLead.MatchString(l) || r.rememberIn.MatchString(l)
	switch {
	case r.decision.MatchString(l) || r.letsDecide.MatchString(l) && r.rationale.MatchString(l):
		return kindDecision, remember
	case r.identity.MatchString(l):
		return kindIdentity, remember
	case r.preference.MatchString(l):
		return kindPreference, remember
	case r.convention.MatchString(l):
		return kindConvention, remember
	case r.directive.MatchString(l) && !r.notDirective.MatchString(l) && !r.noVerb.MatchString(l):
		return kindDirective, remember
	case r.url.MatchString(l) && r.reference.MatchString(l):
		return kindReference, remember
	}
	if remember {
		return kindConvention, true // "remember that the staging DB is read-only"
	}
	return kindNone, false
}
