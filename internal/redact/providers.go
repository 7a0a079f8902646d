package redact

import "strings"

// A provider rule recognizes a credential by its documented prefix.
type provider struct {
	prefix string
	kind   string
	min    int  // shortest whole token
	digit  bool // the part after the prefix must hold a digit (for short, word-like prefixes)
	exact  int  // when set, the token's exact length
	max    int  // when set, the longest whole token: nothing after it belongs to it
	upper  bool // the part after the prefix is upper-case letters and digits only
}

// providerTable lists credential formats. A longer prefix comes before a
// shorter one it extends (sk-ant- before sk-), since the first match wins.
func providerTable() []provider {
	return []provider{
		{prefix: "sk-ant-", kind: "anthropic-key", min: 40},
		{prefix: "sk-proj-", kind: "openai-key", min: 40},
		{prefix: "sk-svcacct-", kind: "openai-key", min: 40},
		{prefix: "sk-admin-", kind: "openai-key", min: 40},
		{prefix: "sk-or-v1-", kind: "openrouter-key", min: 40},
		{prefix: "sk-", kind: "openai-key", min: 32, digit: true},
		{prefix: "sk_live_", kind: "stripe-key", min: 24},
		{prefix: "sk_test_", kind: "stripe-key", min: 24},
		{prefix: "rk_live_", kind: "stripe-key", min: 24},
		{prefix: "rk_test_", kind: "stripe-key", min: 24},
		{prefix: "whsec_", kind: "stripe-key", min: 30},
		{prefix: "AKIA", kind: "aws-access-key", exact: 20, upper: true},
		{prefix: "ASIA", kind: "aws-access-key", exact: 20, upper: true},
		{prefix: "AIza", kind: "gcp-api-key", exact: 39},
		{prefix: "ya29.", kind: "gcp-oauth-token", min: 30},
		{prefix: "GOCSPX-", kind: "gcp-client-secret", min: 30},
		{prefix: "github_pat_", kind: "github-token", min: 40},
		{prefix: "ghp_", kind: "github-token", min: 36, max: 40},
		{prefix: "gho_", kind: "github-token", min: 36, max: 40},
		{prefix: "ghu_", kind: "github-token", min: 36, max: 40},
		{prefix: "ghs_", kind: "github-token", min: 36, max: 40},
		{prefix: "ghr_", kind: "github-token", min: 36, max: 40},
		{prefix: "glpat-", kind: "gitlab-token", min: 26},
		{prefix: "glptt-", kind: "gitlab-token", min: 26},
		{prefix: "glrt-", kind: "gitlab-token", min: 25},
		{prefix: "gldt-", kind: "gitlab-token", min: 25},
		{prefix: "glcbt-", kind: "gitlab-token", min: 25},
		{prefix: "GR1348941", kind: "gitlab-token", min: 29},
		{prefix: "xoxb-", kind: "slack-token", min: 20, digit: true},
		{prefix: "xoxp-", kind: "slack-token", min: 20, digit: true},
		{prefix: "xoxa-", kind: "slack-token", min: 20, digit: true},
		{prefix: "xoxr-", kind: "slack-token", min: 20, digit: true},
		{prefix: "xoxs-", kind: "slack-token", min: 20, digit: true},
		{prefix: "xoxe-", kind: "slack-token", min: 20, digit: true},
		{prefix: "xapp-", kind: "slack-token", min: 20, digit: true},
		{prefix: "npm_", kind: "npm-token", min: 40},
		{prefix: "pypi-AgEIcHlwaS5vcmc", kind: "pypi-token", min: 60},
		{prefix: "hf_", kind: "huggingface-token", min: 34, digit: true},
		{prefix: "dop_v1_", kind: "digitalocean-token", min: 40},
		{prefix: "doo_v1_", kind: "digitalocean-token", min: 40},
		{prefix: "dor_v1_", kind: "digitalocean-token", min: 40},
		{prefix: "shpat_", kind: "shopify-token", min: 38},
		{prefix: "shpss_", kind: "shopify-token", min: 38},
		{prefix: "shpca_", kind: "shopify-token", min: 38},
		{prefix: "shppa_", kind: "shopify-token", min: 38},
		{prefix: "SG.", kind: "sendgrid-key", min: 60},
		{prefix: "lin_api_", kind: "linear-key", min: 40},
		{prefix: "sntrys_", kind: "sentry-token", min: 40},
		{prefix: "sntryu_", kind: "sentry-token", min: 40},
		{prefix: "gsk_", kind: "groq-key", min: 40, digit: true},
		{prefix: "xai-", kind: "xai-key", min: 40, digit: true},
		{prefix: "r8_", kind: "replicate-token", min: 30, digit: true},
		{prefix: "pplx-", kind: "perplexity-key", min: 40, digit: true},
		{prefix: "AGE-SECRET-KEY-1", kind: "age-key", min: 60},
		{prefix: "PMAK-", kind: "postman-key", min: 40},
		{prefix: "dapi", kind: "databricks-token", min: 36, digit: true},
		{prefix: "ATATT3", kind: "atlassian-token", min: 40},
		{prefix: "glsa_", kind: "grafana-token", min: 40},
		{prefix: "glc_", kind: "grafana-token", min: 40},
		{prefix: "tskey-", kind: "tailscale-key", min: 30},
		{prefix: "sbp_", kind: "supabase-token", min: 40},
		{prefix: "EAACEdEose0cBA", kind: "facebook-token", min: 30},
	}
}

// providerIndex holds the provider rules by the first byte of their prefix.
type providerIndex [256][]provider

func newProviderIndex() *providerIndex {
	var idx providerIndex
	for _, p := range providerTable() {
		idx[p.prefix[0]] = append(idx[p.prefix[0]], p)
	}
	return &idx
}

// kind returns the kind of credential tok is by its prefix, or "".
func (idx *providerIndex) kind(tok string) string {
	if len(tok) < 20 {
		return ""
	}
	p := idx.prefixed(tok)
	if p == nil {
		return ""
	}
	body := tok[len(p.prefix):]
	switch {
	case p.exact > 0 && len(tok) != p.exact,
		len(tok) < p.min,
		p.digit && !strings.ContainsAny(body, "0123456789"),
		p.upper && !upperDigits(body):
		return ""
	}
	return p.kind
}

// prefixed returns the provider rule whose prefix tok starts with, or nil.
func (idx *providerIndex) prefixed(tok string) *provider {
	if tok == "" {
		return nil
	}
	for i := range idx[tok[0]] {
		if p := &idx[tok[0]][i]; strings.HasPrefix(tok, p.prefix) {
			return p
		}
	}
	return nil
}

// complete reports whether tok is as long as a credential of its
// provider can be, so that no text after it can belong to it.
func (p *provider) complete(tok string) bool {
	return p.exact > 0 && len(tok) >= p.exact || p.max > 0 && len(tok) >= p.max
}

// providerName names a provider kind for people, as refusals and mnemo
// scan show it; "" for a kind that is not a provider's.
func providerName(kind string) string {
	switch kind {
	case "anthropic-key":
		return "Anthropic API key"
	case "openai-key":
		return "OpenAI API key"
	case "openrouter-key":
		return "OpenRouter API key"
	case "stripe-key":
		return "Stripe key"
	case "aws-access-key":
		return "AWS access key"
	case "gcp-api-key":
		return "Google API key"
	case "gcp-oauth-token":
		return "Google OAuth token"
	case "gcp-client-secret":
		return "Google OAuth client secret"
	case "github-token":
		return "GitHub token"
	case "gitlab-token":
		return "GitLab token"
	case "slack-token":
		return "Slack token"
	case "npm-token":
		return "npm token"
	case "pypi-token":
		return "PyPI token"
	case "huggingface-token":
		return "Hugging Face token"
	case "digitalocean-token":
		return "DigitalOcean token"
	case "shopify-token":
		return "Shopify token"
	case "sendgrid-key":
		return "SendGrid API key"
	case "linear-key":
		return "Linear API key"
	case "sentry-token":
		return "Sentry token"
	case "groq-key":
		return "Groq API key"
	case "xai-key":
		return "xAI API key"
	case "replicate-token":
		return "Replicate token"
	case "perplexity-key":
		return "Perplexity API key"
	case "age-key":
		return "age secret key"
	case "postman-key":
		return "Postman API key"
	case "databricks-token":
		return "Databricks token"
	case "atlassian-token":
		return "Atlassian API token"
	case "grafana-token":
		return "Grafana token"
	case "tailscale-key":
		return "Tailscale key"
	case "supabase-token":
		return "Supabase token"
	case "facebook-token":
		return "Facebook access token"
	}
	return ""
}

func upperDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// isJWT reports whether tok is a JSON Web Token: base64url header (which
// always starts "eyJ", the encoding of `{"`), payload and signature.
func isJWT(tok string) bool {
	if !strings.HasPrefix(tok, "eyJ") {
		return false
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 || len(parts[0]) < 10 || len(parts[1]) < 10 {
		return false
	}
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			if c := p[i]; !isAlnum(c) && c != '-' && c != '_' && c != '=' {
				return false
			}
		}
	}
	return true
}
