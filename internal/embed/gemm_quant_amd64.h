// The kernels of gemm_quant.go, with AVX-512, for the matrices stored in
// 4 bits (q4r1 to q4r8) and in int8 (q8r1 to q8r8). Each adds x's N rows
// (k values apart) times one panel of 32 columns of the matrix to 32
// values of y's N rows (ldy values apart), with 2N accumulators (Z0 to
// Z(2N-1)): each row of the panel is decoded as package packfile decodes
// it, into two registers (columns 0-15 and 16-31), by which each of x's
// rows' value, broadcast, is multiplied and added.
//
// A row of a 4-bit panel is 16 bytes and a float32 scale: the 16 levels
// (Z16) times the scale, then the 16 bytes widened to 16 dwords, whose
// low nibble VPERMPS reads as the index of columns 0-15 (it reads only
// the low 4 bits), and shifted right by 4 for columns 16-31. A row of an
// int8 panel is 32 bytes, each widened, converted and times its column's
// scale (Z16, Z17).
//
// An accumulator waits for its last FMA (4 cycles), so with 3 rows or
// fewer (6 accumulators or fewer) the panel's rows go 2 at a time, the
// odd ones into accumulators of their own (from Z8), summed at the end.

// ARGS loads the arguments but the last two: k in CX, x in SI, the
// panel's values in DI, its scales in BX; x's rows 4k bytes apart in
// R8, 3 rows in AX, x's row 4 in R11.
#define ARGS \
	MOVQ k+0(FP), CX;      \
	MOVQ x+8(FP), SI;      \
	MOVQ p+16(FP), DI;     \
	MOVQ scale+24(FP), BX; \
	MOVQ CX, R8;           \
	SHLQ $2, R8;           \
	LEAQ (R8)(R8*2), AX;   \
	LEAQ (SI)(R8*4), R11

// YARGS loads y into DX and its rows' distance into R10: 3 rows in R9,
// y's row 4 in R12.
#define YARGS(y, ldy) \
	MOVQ y, DX;            \
	MOVQ ldy, R10;         \
	SHLQ $2, R10;          \
	LEAQ (R10)(R10*2), R9; \
	LEAQ (DX)(R10*4), R12

#define ZERO2(lo, hi) \
	VPXORD lo, lo, lo; \
	VPXORD hi, hi, hi

// DECODE4 decodes the row of a 4-bit panel whose scale is at s and bytes
// at p into w0 and w1, with t, a and b for the scaled levels and the
// indexes.
#define DECODE4(s, p, t, a, b, w0, w1) \
	VMULPS.BCST s, Z16, t; \
	VPMOVZXBD   p, a;      \
	VPSRLD      $4, a, b;  \
	VPERMPS     t, a, w0;  \
	VPERMPS     t, b, w1

// DECODE8 decodes the row of an int8 panel whose values are at p and p2
// (16 bytes on) into w0 and w1, through a and b.
#define DECODE8(p, p2, a, b, w0, w1) \
	VPMOVSXBD p, a;      \
	VPMOVSXBD p2, b;     \
	VCVTDQ2PS a, a;      \
	VCVTDQ2PS b, b;      \
	VMULPS    Z16, a, w0; \
	VMULPS    Z17, b, w1

// NEXT4 and NEXT8 move to the next row of a 4-bit or int8 panel, or the
// next two (by 1 or 2 rows' bytes xs of x, ps of the panel, ss of scales).
#define NEXT4(xs, ps, ss) \
	ADDQ xs, SI;  \
	ADDQ xs, R11; \
	ADDQ ss, BX;  \
	ADDQ ps, DI

#define NEXT8(xs, ps) \
	ADDQ xs, SI;  \
	ADDQ xs, R11; \
	ADDQ ps, DI

// FMA2 adds the x value at addr times the decoded row in w0 and w1 to a
// row's two accumulators.
#define FMA2(addr, w0, w1, lo, hi) \
	VFMADD231PS.BCST addr, w0, lo; \
	VFMADD231PS.BCST addr, w1, hi

// STORE2 adds a row's two accumulators to its 32 values of y, at addr
// and addr2 (64 bytes on).
#define STORE2(addr, addr2, lo, hi) \
	VADDPS  addr, lo, lo;  \
	VMOVUPS lo, addr;      \
	VADDPS  addr2, hi, hi; \
	VMOVUPS hi, addr2
