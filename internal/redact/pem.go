package redact

import "strings"

// maxPEM bounds how far a PEM block's END line is looked for.
const maxPEM = 64 << 10

// findPEM finds PEM blocks whose label names a private key (RSA, EC, DSA,
// OPENSSH, ENCRYPTED, PGP … PRIVATE KEY), from BEGIN to END. Certificates
// and public keys are public and stay. A block whose END line is missing
// (cut, or escaped inside a JSON string) runs over the key material that
// follows: base64 characters, whitespace and literal "\n" escapes.
func findPEM(fs []span, s string) []span {
	const begin = "-----BEGIN "
	for i := 0; ; {
		j := strings.Index(s[i:], begin)
		if j < 0 {
			return fs
		}
		j += i
		labelStart := j + len(begin)
		k := strings.Index(s[labelStart:min(len(s), labelStart+64)], "-----")
		label := ""
		if k >= 0 {
			label = s[labelStart : labelStart+k]
		}
		if !strings.Contains(label, "PRIVATE KEY") {
			i = j + 1 // another BEGIN may start inside this one's dashes
			continue
		}
		bodyStart := labelStart + k + len("-----")
		end := -1
		endLine := "-----END " + label + "-----"
		if e := strings.Index(s[bodyStart:min(len(s), bodyStart+maxPEM)], endLine); e >= 0 {
			end = bodyStart + e + len(endLine)
		} else {
			end = keyMaterialEnd(s, bodyStart)
		}
		fs = append(fs, span{j, end, KindPrivateKey})
		i = end
	}
}

// publicBlocks returns the spans of PEM certificates, public keys and
// certificate requests. They are public; the entropy rule leaves their
// base64 bodies alone.
func publicBlocks(s string) [][2]int {
	var spans [][2]int
	const begin = "-----BEGIN "
	for i := 0; ; {
		j := strings.Index(s[i:], begin)
		if j < 0 {
			return spans
		}
		j += i
		labelStart := j + len(begin)
		k := strings.Index(s[labelStart:min(len(s), labelStart+64)], "-----")
		if k < 0 || strings.Contains(s[labelStart:labelStart+k], "PRIVATE") {
			i = j + 1
			continue
		}
		label := s[labelStart : labelStart+k]
		i = labelStart + k
		endLine := "-----END " + label + "-----"
		if e := strings.Index(s[i:min(len(s), i+maxPEM)], endLine); e >= 0 {
			spans = append(spans, [2]int{j, i + e + len(endLine)})
			i += e + len(endLine)
		}
	}
}

// keyMaterialEnd returns where the base64 body starting at i ends.
func keyMaterialEnd(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case isAlnum(c), c == '+', c == '/', c == '=', c == ' ', c == '\t', c == '\r', c == '\n':
			i++
		case c == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r'):
			i += 2
		case c == '-' && strings.HasPrefix(s[i:], "-----END"):
			if e := strings.Index(s[i+8:], "-----"); e >= 0 && e < 64 {
				return i + 8 + e + 5
			}
			return i
		default:
			return i
		}
	}
	return i
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
