// Package cli holds mnemo's cobra commands. Commands are thin: each parses
// its flags into an options struct and calls the feature packages. They get
// their world (streams, clock, environment, vaults) from a [Factory], whose
// costly parts are opened on first use, so --help or a bad flag never
// touches the disk. Only [Run] decides the exit code; only main exits.
package cli
