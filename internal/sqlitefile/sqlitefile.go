package sqlitefile

import "strings"

// uriPath escapes what SQLite's URI parser would read as syntax in a path.
var uriPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// URI returns the "file:" URI of the database at path, followed by query
// (the pragmas and options, without the leading '?'; empty for none).
func URI(path, query string) string {
	u := "file:" + uriPath.Replace(path)
	if query != "" {
		u += "?" + query
	}
	return u
}
