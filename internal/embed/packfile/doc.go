// Package packfile reads and writes the flat file that holds the sentence
// encoder's vocabulary and weights. [Parse] copies nothing: a [File]'s
// pieces and tensors are substrings of the string it was given, which for
// the embedded model is the binary's read-only data, so opening the model
// costs a walk over its directory and weights are decoded only when used.
//
// The file is little-endian:
//
//	"mnemoUSE" 1 0 0 0             magic and version
//	uint32 pieces, uint32 tensors
//	per piece:  float64 score, uint8 length, the piece's UTF-8 bytes
//	per tensor: uint8 length, name, uint8 kind, uint32 rows, uint32 cols,
//	            uint32 offset of its data from the start of the file
//	data
//
// A tensor is a rows×cols matrix (a vector has one row) stored as float32
// ([F32]), or as int8 with a float32 scale per row ([Q8Rows]: first the
// rows scales, then the values row by row) or per column ([Q8Cols]: the
// cols scales first). A value is its int8 times its scale. [Q4] stores
// two values to a byte (the first in the low nibble), each an index into
// 16 levels (NF4) times the bfloat16 scale of its group of [Q4Group]
// values of a row; all scales come first, row by row.
package packfile
