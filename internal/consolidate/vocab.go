package consolidate

// The words that values are recognized by. These tables are read-only.

// envs are the words that always name an environment, by canonical name.
var envs = map[string]string{
	"staging": "staging", "stg": "staging",
	"production": "production", "prod": "production", "prd": "production",
	"preprod": "preprod", "preproduction": "preprod",
	"development": "development", "dev": "development",
	"qa": "qa", "uat": "uat", "sandbox": "sandbox", "canary": "canary",
}

// weakEnvs name an environment only before one of [envNouns]: "the test
// cluster", not "run the test".
var weakEnvs = map[string]string{
	"test": "test", "testing": "test", "local": "local", "demo": "demo",
	"integration": "integration", "live": "production", "stage": "staging",
}

var envNouns = map[string]bool{
	"environment": true, "environments": true, "env": true, "server": true, "servers": true,
	"cluster": true, "clusters": true, "database": true, "databases": true, "db": true,
	"instance": true, "instances": true, "stack": true, "deployment": true, "account": true,
	"region": true, "host": true, "hosts": true, "box": true, "site": true, "tier": true,
	"namespace": true, "project": true, "bucket": true, "api": true, "endpoint": true,
}

var weekdays = map[string]string{
	"monday": "monday", "tuesday": "tuesday", "wednesday": "wednesday", "thursday": "thursday",
	"friday": "friday", "saturday": "saturday", "sunday": "sunday",
	"mondays": "monday", "tuesdays": "tuesday", "wednesdays": "wednesday", "thursdays": "thursday",
	"fridays": "friday", "saturdays": "saturday", "sundays": "sunday",
}

// weekdayAbbrevs count only when capitalized: "Sat" is a day, "sat" a verb.
var weekdayAbbrevs = map[string]string{
	"mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday",
	"thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday",
}

var months = map[string]string{
	"january": "january", "february": "february", "march": "march", "april": "april",
	"may": "may", "june": "june", "july": "july", "august": "august", "september": "september",
	"october": "october", "november": "november", "december": "december",
}

// ambiguousMonths are months only when capitalized ("May", not "may").
var ambiguousMonths = map[string]bool{"march": true, "may": true}

// monthAbbrevs count only when capitalized.
var monthAbbrevs = map[string]string{
	"jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june",
	"jul": "july", "aug": "august", "sep": "september", "sept": "september", "oct": "october",
	"nov": "november", "dec": "december",
}

// units join the number before them, by canonical name: 100 ms and 100ms
// are one value, 100 s another.
var units = map[string]string{
	"ms": "ms", "msec": "ms", "millisecond": "ms", "milliseconds": "ms",
	"s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
	"min": "min", "mins": "min", "minute": "min", "minutes": "min",
	"h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
	"d": "d", "day": "d", "days": "d", "w": "w", "wk": "w", "week": "w", "weeks": "w",
	"kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb", "kib": "kib", "mib": "mib", "gib": "gib",
	"k": "k", "x": "x", "%": "%", "percent": "%",
}

// notNames are capitalized words that name nothing.
var notNames = map[string]bool{"ok": true, "todo": true, "fixme": true, "note": true, "nb": true, "wip": true}

// slashWords have a slash and are not paths.
var slashWords = map[string]bool{
	"and/or": true, "either/or": true, "yes/no": true, "on/off": true, "read/write": true,
	"i/o": true, "input/output": true, "tcp/ip": true, "client/server": true, "w/": true,
	"w/o": true, "true/false": true, "n/a": true, "24/7": true,
}

// fileExts make a dotted word a file name rather than a host.
var fileExts = map[string]bool{
	"go": true, "mod": true, "sum": true, "md": true, "txt": true, "json": true, "jsonl": true,
	"yaml": true, "yml": true, "toml": true, "ini": true, "cfg": true, "conf": true, "env": true,
	"js": true, "mjs": true, "cjs": true, "ts": true, "tsx": true, "jsx": true, "vue": true,
	"svelte": true, "py": true, "rb": true, "rs": true, "java": true, "kt": true, "c": true,
	"h": true, "cc": true, "cpp": true, "hpp": true, "cs": true, "sh": true, "bash": true,
	"zsh": true, "sql": true, "html": true, "css": true, "scss": true, "lock": true, "xml": true,
	"log": true, "csv": true, "proto": true, "tf": true, "lua": true, "php": true, "swift": true,
	"ex": true, "exs": true, "erl": true, "hs": true, "ml": true, "gradle": true, "txtar": true,
	"pem": true, "db": true, "sqlite": true, "png": true, "svg": true, "pdf": true, "zip": true,
	"gz": true, "tar": true, "wasm": true, "dockerfile": true, "mk": true,
}
