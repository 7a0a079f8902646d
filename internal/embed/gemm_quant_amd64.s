//go:build amd64 && !noasm

#include "textflag.h"

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

// func q4r8(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
TEXT ·q4r8(SB), NOSPLIT, $0-56
	ARGS
	MOVQ    levels+32(FP), R13
	VMOVUPS (R13), Z16
	YARGS(y+40(FP), ldy+48(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	ZERO2(Z12, Z13)
	ZERO2(Z14, Z15)
	TESTQ CX, CX
	JZ    storeq4r8

loopq4r8:
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	FMA2((R11), Z20, Z21, Z8, Z9)
	FMA2((R11)(R8*1), Z20, Z21, Z10, Z11)
	FMA2((R11)(R8*2), Z20, Z21, Z12, Z13)
	FMA2((R11)(AX*1), Z20, Z21, Z14, Z15)
	NEXT4($4, $16, $4)
	DECQ CX
	JNZ  loopq4r8

storeq4r8:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	STORE2((R12), 64(R12), Z8, Z9)
	STORE2((R12)(R10*1), 64(R12)(R10*1), Z10, Z11)
	STORE2((R12)(R10*2), 64(R12)(R10*2), Z12, Z13)
	STORE2((R12)(R9*1), 64(R12)(R9*1), Z14, Z15)
	VZEROUPPER
	RET

// func q4r7(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
TEXT ·q4r7(SB), NOSPLIT, $0-56
	ARGS
	MOVQ    levels+32(FP), R13
	VMOVUPS (R13), Z16
	YARGS(y+40(FP), ldy+48(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	ZERO2(Z12, Z13)
	TESTQ CX, CX
	JZ    storeq4r7

loopq4r7:
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	FMA2((R11), Z20, Z21, Z8, Z9)
	FMA2((R11)(R8*1), Z20, Z21, Z10, Z11)
	FMA2((R11)(R8*2), Z20, Z21, Z12, Z13)
	NEXT4($4, $16, $4)
	DECQ CX
	JNZ  loopq4r7

storeq4r7:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	STORE2((R12), 64(R12), Z8, Z9)
	STORE2((R12)(R10*1), 64(R12)(R10*1), Z10, Z11)
	STORE2((R12)(R10*2), 64(R12)(R10*2), Z12, Z13)
	VZEROUPPER
	RET

// func q4r6(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
TEXT ·q4r6(SB), NOSPLIT, $0-56
	ARGS
	MOVQ    levels+32(FP), R13
	VMOVUPS (R13), Z16
	YARGS(y+40(FP), ldy+48(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	TESTQ CX, CX
	JZ    storeq4r6

loopq4r6:
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	FMA2((R11), Z20, Z21, Z8, Z9)
	FMA2((R11)(R8*1), Z20, Z21, Z10, Z11)
	NEXT4($4, $16, $4)
	DECQ CX
	JNZ  loopq4r6

storeq4r6:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	STORE2((R12), 64(R12), Z8, Z9)
	STORE2((R12)(R10*1), 64(R12)(R10*1), Z10, Z11)
	VZEROUPPER
	RET

// func q4r5(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
TEXT ·q4r5(SB), NOSPLIT, $0-56
	ARGS
	MOVQ    levels+32(FP), R13
	VMOVUPS (R13), Z16
	YARGS(y+40(FP), ldy+48(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	ZERO2(Z8, Z9)
	TESTQ CX, CX
	JZ    storeq4r5

loopq4r5:
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	FMA2((R11), Z20, Z21, Z8, Z9)
	NEXT4($4, $16, $4)
	DECQ CX
	JNZ  loopq4r5

storeq4r5:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	STORE2((R12), 64(R12), Z8, Z9)
	VZEROUPPER
	RET

// func q4r4(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
TEXT ·q4r4(SB), NOSPLIT, $0-56
	ARGS
	MOVQ    levels+32(FP), R13
	VMOVUPS (R13), Z16
	YARGS(y+40(FP), ldy+48(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	TESTQ CX, CX
	JZ    storeq4r4

loopq4r4:
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	NEXT4($4, $16, $4)
	DECQ CX
	JNZ  loopq4r4

storeq4r4:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	VZEROUPPER
	RET

// func q4r3(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
TEXT ·q4r3(SB), NOSPLIT, $0-56
	ARGS
	MOVQ    levels+32(FP), R13
	VMOVUPS (R13), Z16
	YARGS(y+40(FP), ldy+48(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	ZERO2(Z12, Z13)
	CMPQ CX, $2
	JLT  tailq4r3

loopq4r3:
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	DECODE4(4(BX), 16(DI), Z24, Z25, Z26, Z22, Z23)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2(4(SI), Z22, Z23, Z8, Z9)
	FMA2(4(SI)(R8*1), Z22, Z23, Z10, Z11)
	FMA2(4(SI)(R8*2), Z22, Z23, Z12, Z13)
	NEXT4($8, $32, $8)
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  loopq4r3

tailq4r3:
	TESTQ CX, CX
	JZ    sumq4r3
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)

sumq4r3:
	VADDPS Z8, Z0, Z0
	VADDPS Z9, Z1, Z1
	VADDPS Z10, Z2, Z2
	VADDPS Z11, Z3, Z3
	VADDPS Z12, Z4, Z4
	VADDPS Z13, Z5, Z5
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	VZEROUPPER
	RET

// func q4r2(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
TEXT ·q4r2(SB), NOSPLIT, $0-56
	ARGS
	MOVQ    levels+32(FP), R13
	VMOVUPS (R13), Z16
	YARGS(y+40(FP), ldy+48(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	CMPQ CX, $2
	JLT  tailq4r2

loopq4r2:
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	DECODE4(4(BX), 16(DI), Z24, Z25, Z26, Z22, Z23)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2(4(SI), Z22, Z23, Z8, Z9)
	FMA2(4(SI)(R8*1), Z22, Z23, Z10, Z11)
	NEXT4($8, $32, $8)
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  loopq4r2

tailq4r2:
	TESTQ CX, CX
	JZ    sumq4r2
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)

sumq4r2:
	VADDPS Z8, Z0, Z0
	VADDPS Z9, Z1, Z1
	VADDPS Z10, Z2, Z2
	VADDPS Z11, Z3, Z3
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	VZEROUPPER
	RET

// func q4r1(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
TEXT ·q4r1(SB), NOSPLIT, $0-56
	ARGS
	MOVQ    levels+32(FP), R13
	VMOVUPS (R13), Z16
	YARGS(y+40(FP), ldy+48(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z8, Z9)
	CMPQ CX, $2
	JLT  tailq4r1

loopq4r1:
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	DECODE4(4(BX), 16(DI), Z24, Z25, Z26, Z22, Z23)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2(4(SI), Z22, Z23, Z8, Z9)
	NEXT4($8, $32, $8)
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  loopq4r1

tailq4r1:
	TESTQ CX, CX
	JZ    sumq4r1
	DECODE4((BX), (DI), Z17, Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)

sumq4r1:
	VADDPS Z8, Z0, Z0
	VADDPS Z9, Z1, Z1
	STORE2((DX), 64(DX), Z0, Z1)
	VZEROUPPER
	RET

// func q8r8(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)
TEXT ·q8r8(SB), NOSPLIT, $0-48
	ARGS
	VMOVUPS (BX), Z16
	VMOVUPS 64(BX), Z17
	YARGS(y+32(FP), ldy+40(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	ZERO2(Z12, Z13)
	ZERO2(Z14, Z15)
	TESTQ CX, CX
	JZ    storeq8r8

loopq8r8:
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	FMA2((R11), Z20, Z21, Z8, Z9)
	FMA2((R11)(R8*1), Z20, Z21, Z10, Z11)
	FMA2((R11)(R8*2), Z20, Z21, Z12, Z13)
	FMA2((R11)(AX*1), Z20, Z21, Z14, Z15)
	NEXT8($4, $32)
	DECQ CX
	JNZ  loopq8r8

storeq8r8:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	STORE2((R12), 64(R12), Z8, Z9)
	STORE2((R12)(R10*1), 64(R12)(R10*1), Z10, Z11)
	STORE2((R12)(R10*2), 64(R12)(R10*2), Z12, Z13)
	STORE2((R12)(R9*1), 64(R12)(R9*1), Z14, Z15)
	VZEROUPPER
	RET

// func q8r7(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)
TEXT ·q8r7(SB), NOSPLIT, $0-48
	ARGS
	VMOVUPS (BX), Z16
	VMOVUPS 64(BX), Z17
	YARGS(y+32(FP), ldy+40(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	ZERO2(Z12, Z13)
	TESTQ CX, CX
	JZ    storeq8r7

loopq8r7:
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	FMA2((R11), Z20, Z21, Z8, Z9)
	FMA2((R11)(R8*1), Z20, Z21, Z10, Z11)
	FMA2((R11)(R8*2), Z20, Z21, Z12, Z13)
	NEXT8($4, $32)
	DECQ CX
	JNZ  loopq8r7

storeq8r7:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	STORE2((R12), 64(R12), Z8, Z9)
	STORE2((R12)(R10*1), 64(R12)(R10*1), Z10, Z11)
	STORE2((R12)(R10*2), 64(R12)(R10*2), Z12, Z13)
	VZEROUPPER
	RET

// func q8r6(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)
TEXT ·q8r6(SB), NOSPLIT, $0-48
	ARGS
	VMOVUPS (BX), Z16
	VMOVUPS 64(BX), Z17
	YARGS(y+32(FP), ldy+40(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	TESTQ CX, CX
	JZ    storeq8r6

loopq8r6:
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	FMA2((R11), Z20, Z21, Z8, Z9)
	FMA2((R11)(R8*1), Z20, Z21, Z10, Z11)
	NEXT8($4, $32)
	DECQ CX
	JNZ  loopq8r6

storeq8r6:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	STORE2((R12), 64(R12), Z8, Z9)
	STORE2((R12)(R10*1), 64(R12)(R10*1), Z10, Z11)
	VZEROUPPER
	RET

// func q8r5(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)
TEXT ·q8r5(SB), NOSPLIT, $0-48
	ARGS
	VMOVUPS (BX), Z16
	VMOVUPS 64(BX), Z17
	YARGS(y+32(FP), ldy+40(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	ZERO2(Z8, Z9)
	TESTQ CX, CX
	JZ    storeq8r5

loopq8r5:
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	FMA2((R11), Z20, Z21, Z8, Z9)
	NEXT8($4, $32)
	DECQ CX
	JNZ  loopq8r5

storeq8r5:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	STORE2((R12), 64(R12), Z8, Z9)
	VZEROUPPER
	RET

// func q8r4(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)
TEXT ·q8r4(SB), NOSPLIT, $0-48
	ARGS
	VMOVUPS (BX), Z16
	VMOVUPS 64(BX), Z17
	YARGS(y+32(FP), ldy+40(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z6, Z7)
	TESTQ CX, CX
	JZ    storeq8r4

loopq8r4:
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2((SI)(AX*1), Z20, Z21, Z6, Z7)
	NEXT8($4, $32)
	DECQ CX
	JNZ  loopq8r4

storeq8r4:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	VZEROUPPER
	RET

// func q8r3(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)
TEXT ·q8r3(SB), NOSPLIT, $0-48
	ARGS
	VMOVUPS (BX), Z16
	VMOVUPS 64(BX), Z17
	YARGS(y+32(FP), ldy+40(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z4, Z5)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	ZERO2(Z12, Z13)
	CMPQ CX, $2
	JLT  tailq8r3

loopq8r3:
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	DECODE8(32(DI), 48(DI), Z25, Z26, Z22, Z23)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)
	FMA2(4(SI), Z22, Z23, Z8, Z9)
	FMA2(4(SI)(R8*1), Z22, Z23, Z10, Z11)
	FMA2(4(SI)(R8*2), Z22, Z23, Z12, Z13)
	NEXT8($8, $64)
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  loopq8r3

tailq8r3:
	TESTQ CX, CX
	JZ    sumq8r3
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2((SI)(R8*2), Z20, Z21, Z4, Z5)

sumq8r3:
	VADDPS Z8, Z0, Z0
	VADDPS Z9, Z1, Z1
	VADDPS Z10, Z2, Z2
	VADDPS Z11, Z3, Z3
	VADDPS Z12, Z4, Z4
	VADDPS Z13, Z5, Z5
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	VZEROUPPER
	RET

// func q8r2(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)
TEXT ·q8r2(SB), NOSPLIT, $0-48
	ARGS
	VMOVUPS (BX), Z16
	VMOVUPS 64(BX), Z17
	YARGS(y+32(FP), ldy+40(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z2, Z3)
	ZERO2(Z8, Z9)
	ZERO2(Z10, Z11)
	CMPQ CX, $2
	JLT  tailq8r2

loopq8r2:
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	DECODE8(32(DI), 48(DI), Z25, Z26, Z22, Z23)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)
	FMA2(4(SI), Z22, Z23, Z8, Z9)
	FMA2(4(SI)(R8*1), Z22, Z23, Z10, Z11)
	NEXT8($8, $64)
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  loopq8r2

tailq8r2:
	TESTQ CX, CX
	JZ    sumq8r2
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2((SI)(R8*1), Z20, Z21, Z2, Z3)

sumq8r2:
	VADDPS Z8, Z0, Z0
	VADDPS Z9, Z1, Z1
	VADDPS Z10, Z2, Z2
	VADDPS Z11, Z3, Z3
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	VZEROUPPER
	RET

// func q8r1(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)
TEXT ·q8r1(SB), NOSPLIT, $0-48
	ARGS
	VMOVUPS (BX), Z16
	VMOVUPS 64(BX), Z17
	YARGS(y+32(FP), ldy+40(FP))
	ZERO2(Z0, Z1)
	ZERO2(Z8, Z9)
	CMPQ CX, $2
	JLT  tailq8r1

loopq8r1:
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	DECODE8(32(DI), 48(DI), Z25, Z26, Z22, Z23)
	FMA2((SI), Z20, Z21, Z0, Z1)
	FMA2(4(SI), Z22, Z23, Z8, Z9)
	NEXT8($8, $64)
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  loopq8r1

tailq8r1:
	TESTQ CX, CX
	JZ    sumq8r1
	DECODE8((DI), 16(DI), Z18, Z19, Z20, Z21)
	FMA2((SI), Z20, Z21, Z0, Z1)

sumq8r1:
	VADDPS Z8, Z0, Z0
	VADDPS Z9, Z1, Z1
	STORE2((DX), 64(DX), Z0, Z1)
	VZEROUPPER
	RET
