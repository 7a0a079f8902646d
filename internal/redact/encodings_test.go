package redact

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/redact/encodetest"
)

// TestStringEncodingsPositives: secrets in the encodings the first
// decoders did not read: base64 wrapped at a width that is not a
// multiple of 4, HTML and XML character references, octal (C's \101 and
// echo -e's \0101) and \U escapes, and three encodings inside each other.
func TestStringEncodingsPositives(t *testing.T) {
	env := "DATABASE_URL=postgres://app:s3cr3tP4ss@db/app\nGITHUB_TOKEN=" + fakeGHP + "\n"
	bot := "the deploy bot's login: GITHUB_TOKEN=" + fakeGHP + "\n" // the token from the 38th byte: on the second line of 50 or 70
	tests := []struct {
		name, in, want string
	}{
		{"base64 wrapped at 70", "env:\n" + encodetest.Wrap(b64([]byte(env)), 70) + "\nend", "env:\n[REDACTED:github-token]\nend"},
		{"base64 wrapped at 50, indented", "key: |\n    " + strings.ReplaceAll(encodetest.Wrap(b64([]byte(fakePEM)), 50), "\n", "\n    ") + "\nnext: 1",
			"key: |\n    [REDACTED:private-key]\nnext: 1"},
		{"base64 wrapped at 37, CRLF", "v\r\n" + strings.ReplaceAll(encodetest.Wrap(b64([]byte(env)), 37), "\n", "\r\n") + "\r\n", "v\r\n[REDACTED:github-token]\r\n"},
		{"a line of base64 before a block wrapped at 70", "v\n" + b64([]byte("the deploy notes for the release job, in the wiki: ")) + "\n" + encodetest.Wrap(b64([]byte(bot)), 70),
			"v\n[REDACTED:github-token]"}, // the line before is glued to it, as before a block wrapped at 76
		{"HTML hex references", "<p>&#x67;&#x68;&#x70;&#x5f;" + fakeGHP[4:] + "</p>", "<p>[REDACTED:github-token]</p>"},
		{"HTML decimal references every byte", "<td>" + encodetest.EscapeAll(fakeAWSID, "&#%d;") + "</td>", "<td>[REDACTED:aws-access-key]</td>"},
		{"HTML named and numeric mixed", "ghp&lowbar;" + fakeGHP[4:10] + "&#" + "x" + hex.EncodeToString([]byte(fakeGHP[10:11])) + ";" + fakeGHP[11:],
			"[REDACTED:github-token]"},
		{"HTML prose, every byte", "the admin password is " + encodetest.EscapeAll(fakePassword, "&#x%x;") + ".", "the admin password is [REDACTED:password]."},
		{"octal escapes", `printf '` + encodetest.EscapeAll(fakeGHP, `\%03o`) + `'`, `printf '[REDACTED:github-token]'`},
		{"octal escapes in part", `"\101\113\111\101` + fakeAWSID[4:] + `"`, `"[REDACTED:aws-access-key]"`},
		{"echo -e octal escapes", `echo -e '` + encodetest.EscapeAll(fakeGHP, `\0%03o`) + `'`, `echo -e '[REDACTED:github-token]'`},
		{"echo -e octal escapes in part", `printf '%b' '\0101\0113\0111\0101` + fakeAWSID[4:] + `'`, `printf '%b' '[REDACTED:aws-access-key]'`},
		{"\\U escapes", `s = "` + encodetest.EscapeAll(fakeGHP, `\U%08x`) + `"`, `s = "[REDACTED:github-token]"`},
		{"\\U escape first", `'\U00000041` + fakeAWSID[1:] + `'`, `'[REDACTED:aws-access-key]'`},
		{"percent of base64 of hex", "q=" + encodetest.EscapeAll(b64([]byte(hex.EncodeToString([]byte(fakeGHP)))), "%%%02X") + "&p=1",
			"q=[REDACTED:github-token]&p=1"},
		{"base64 thrice", "v " + b64([]byte(b64([]byte(b64([]byte(fakeGHP)))))), "v [REDACTED:github-token]"},
		{"HTML of base64 of hex", "<b>" + encodetest.EscapeAll(b64([]byte(hex.EncodeToString([]byte(fakeAWSID)))), "&#%d;") + "</b>", "<b>[REDACTED:aws-access-key]</b>"},
	}
	r := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestStringEncodingsNegatives: ordinary text in these encodings, and
// text that looks like them, is left as it was.
func TestStringEncodingsNegatives(t *testing.T) {
	tests := []struct{ name, in string }{
		{"HTML entities", "<p>Tom &amp; Jerry &lt;3 &copy; 2026 &mdash; &#8220;quoted&#8221; &nbsp;&#x2014;</p>"},
		{"URL query with ampersands", "https://example.com/a?x=1&lang=en&amp=2&sort=desc"},
		{"octal file modes", `chmod 0755 and os.FileMode(\0644) and sed 's/\(a\)\1/\2/'`},
		{"octal of ordinary text", `"\150\145\154\154\157\040\167\157\162\154\144"`},
		{"echo -e octal of ordinary text", `echo -e '\0150\0145\0154\0154\0157\0040\0167\0157\0162\0154\0144'`},
		{"C octal before a digit", `"\0123\0111\0644 \0777"`},
		{"\\U of ordinary text", `"\U0001F600 \U00000068\U00000069"`},
		{"base64 of prose at 70", encodetest.Wrap(b64([]byte(strings.Repeat("the deploy notes say to run make deploy. ", 6))), 70)},
		{"two identifiers of one width", "TestDigestSplitsChunksAtTurnBo\nTestRecallRanksAnchoredFilesUp"},
	}
	r := New(Options{NoEntropy: true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.String(tt.in); got != tt.in {
				t.Errorf("String(%q)\n got %q\nwant it unchanged", tt.in, got)
			}
		})
	}
}
