package instruction

import "github.com/mnemo-dev/mnemo/internal/lazyregexp"

// Instructions that turn the agent against its user: a secret sent out,
// its own instructions overridden, a shell opened for someone else. Like
// a pipe into a shell, the command shapes and the override phrases count
// in any mood; a verb on a secret counts as an imperative (verbKind).
var (
	// Where credentials are kept: key files, credential files, dotenv.
	secretPath = `(?:\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\.netrc\b|\.env\b|\.npmrc\b|\.pypirc\b|` +
		`\.git-credentials\b|\.docker/config\.json|\.kube/config\b|/etc/shadow\b|\.gnupg/)`

	// A network tool and a credential's file on one line: curl -d
	// @~/.netrc …, cat ~/.ssh/id_rsa | nc …, curl …/$(cat ~/.aws/credentials).
	sendRE = lazyregexp.New(`\b(?:curl|wget|nc|ncat|netcat|scp|rsync|sendmail|mail|ftp|telnet)\b[^\n]*` + secretPath +
		`|` + secretPath + `[^\n]*\|\s*(?:curl|wget|nc|ncat|netcat|sendmail|mail|ssh)\b|\bexfiltrat\w*`)

	// What an imperative must not send, show or commit: a credential's
	// file, a variable named like a secret, or the environment itself.
	// Not "tokens" or a bare *_key: "log the input tokens", "print the
	// sort_key" are not secrets.
	secretRE = lazyregexp.New(secretPath + `|\$\{?[a-z0-9_]*(?:key|token|secret|password|passwd|pass)\b` +
		`|\b[a-z0-9_]*(?:api|access|secret|private|signing|client|auth|master|encryption)_?key\b|\b[a-z0-9]+_[a-z0-9_]*(?:token|secret|password)\b` +
		`|\b(?:api keys?|access keys?|access tokens|auth tokens|api tokens|secrets|credentials|passwords|private keys?|environment variables|env vars)\b|` + "`env`" + `|\bprintenv\b`)

	// Phrases that replace the agent's instructions or hide from the user.
	overrideRE = lazyregexp.New(`\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?` +
		`(?:previous|prior|above|earlier|preceding|original|system|other|existing)?\s*(?:instructions|prompts?|rules|guidelines|directives)\b` +
		`|(?:^|[.!:;\n]\s*)you are now\b|\bdeveloper mode\b|\bjailbreak` +
		`|\b(?:do not|don't|never)\s+(?:tell|inform|notify|alert|warn|mention (?:this |it )?to)\s+the user\b` +
		`|\bwithout (?:telling|informing|asking|notifying|alerting) the user\b`)

	// A setting that sends the agent's requests, or the packages it
	// installs, through someone else's server: an API base URL, a proxy,
	// a package index. Whoever runs it reads the keys the requests carry.
	redirectRE = lazyregexp.New(`\b[a-z0-9_]*(?:base_url|api_base|_proxy|proxy_url|endpoint_url)\s*=\s*["']?(?:https?|socks5h?)://` +
		`|\bconfig\s+set\s+\S*(?:registry|proxy|index-url)\S*\s+["']?https?://|--(?:extra-)?index-url[= ]\s*["']?https?://|--registry[= ]\s*["']?https?://`)

	// A shell served to another machine.
	remoteRE = lazyregexp.New(`/dev/(?:tcp|udp)/|\b(?:nc|ncat|netcat)\b[^|\n]*\s-[ec]\s|\bsocat\b[^\n]*\bexec:` +
		`|\bmkfifo\b[^\n]*\|\s*(?:nc|ncat|netcat)\b`)
)

// Verbs that send, show or commit what follows them.
var sendVerbs = set("send", "email", "mail", "upload", "post", "paste", "share", "copy", "cp", "scp", "rsync", "forward",
	"leak", "transmit", "include", "print", "echo", "cat", "reveal", "dump", "expose", "commit", "publish", "attach", "log", "pipe")
