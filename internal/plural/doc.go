// Package plural writes counts in English: "1 memory", "2 memories". It
// is the one place messages choose between a word's singular and plural.
package plural
