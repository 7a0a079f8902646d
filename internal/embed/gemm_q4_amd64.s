//go:build amd64 && !noasm

#include "textflag.h"

// The Q4 kernels of gemm_q4.go, with AVX-512: each adds x's rows (k
// values apart) times one panel of a q4Matrix (k rows of 16 bytes, and k
// float32 scales) to 32 values of y's rows (ldy values apart). Per row l
// of the panel: the 16 levels times the row's scale (Z17), the 16 bytes
// widened to 16 dwords (Z18), whose low nibble VPERMPS reads as the index
// of columns 0-15 (it reads only the low 4 bits), and shifted right by 4
// (Z19) for columns 16-31: the panel's row decoded as
// [packfile.Tensor.Q4Range] decodes it, into Z20 and Z21.

#define DECODE \
	VMULPS.BCST (BX), Z16, Z17; \
	VPMOVZXBD   (DI), Z18;      \
	VPSRLD      $4, Z18, Z19;   \
	VPERMPS     Z17, Z18, Z20;  \
	VPERMPS     Z17, Z19, Z21

// FMA2 adds the x value at addr times the decoded row to a row's two
// accumulators.
#define FMA2(addr, lo, hi) \
	VFMADD231PS.BCST addr, Z20, lo; \
	VFMADD231PS.BCST addr, Z21, hi

// STORE2 adds a row's two accumulators to its 32 values of y, at addr
// and addr2 (64 bytes on).
#define STORE2(addr, addr2, lo, hi) \
	VADDPS  addr, lo, lo;   \
	VMOVUPS lo, addr;       \
	VADDPS  addr2, hi, hi;  \
	VMOVUPS hi, addr2

// func q4r8(k int, x *float32, nib *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
// takes 8 rows: 16 accumulators (Z0-Z15).
TEXT ·q4r8(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ nib+16(FP), DI
	MOVQ scale+24(FP), BX
	MOVQ levels+32(FP), AX
	MOVQ y+40(FP), DX
	MOVQ ldy+48(FP), R10
	VMOVUPS (AX), Z16
	MOVQ CX, R8
	SHLQ $2, R8           // a row of x
	SHLQ $2, R10
	LEAQ (R8)(R8*2), AX   // 3 rows of x
	LEAQ (SI)(R8*4), R11  // x's row 4
	LEAQ (R10)(R10*2), R9 // 3 rows of y
	LEAQ (DX)(R10*4), R12 // y's row 4
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	TESTQ CX, CX
	JZ    store8

loop8:
	DECODE
	FMA2((SI), Z0, Z1)
	FMA2((SI)(R8*1), Z2, Z3)
	FMA2((SI)(R8*2), Z4, Z5)
	FMA2((SI)(AX*1), Z6, Z7)
	FMA2((R11), Z8, Z9)
	FMA2((R11)(R8*1), Z10, Z11)
	FMA2((R11)(R8*2), Z12, Z13)
	FMA2((R11)(AX*1), Z14, Z15)
	ADDQ $4, SI
	ADDQ $4, R11
	ADDQ $4, BX
	ADDQ $16, DI
	DECQ CX
	JNZ  loop8

store8:
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

// func q4r4(k int, x *float32, nib *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
// takes 4 rows: 8 accumulators (Z0-Z7).
TEXT ·q4r4(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ nib+16(FP), DI
	MOVQ scale+24(FP), BX
	MOVQ levels+32(FP), AX
	MOVQ y+40(FP), DX
	MOVQ ldy+48(FP), R10
	VMOVUPS (AX), Z16
	MOVQ CX, R8
	SHLQ $2, R8           // a row of x
	SHLQ $2, R10
	LEAQ (R8)(R8*2), AX   // 3 rows of x
	LEAQ (R10)(R10*2), R9 // 3 rows of y
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JZ    store4

loop4:
	DECODE
	FMA2((SI), Z0, Z1)
	FMA2((SI)(R8*1), Z2, Z3)
	FMA2((SI)(R8*2), Z4, Z5)
	FMA2((SI)(AX*1), Z6, Z7)
	ADDQ $4, SI
	ADDQ $4, BX
	ADDQ $16, DI
	DECQ CX
	JNZ  loop4

store4:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	STORE2((DX)(R10*2), 64(DX)(R10*2), Z4, Z5)
	STORE2((DX)(R9*1), 64(DX)(R9*1), Z6, Z7)
	VZEROUPPER
	RET

// func q4r2(k int, x *float32, nib *byte, scale *float32, levels *[16]float32, y *float32, ldy int)
// takes 2 rows: 4 accumulators (Z0-Z3).
TEXT ·q4r2(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ nib+16(FP), DI
	MOVQ scale+24(FP), BX
	MOVQ levels+32(FP), AX
	MOVQ y+40(FP), DX
	MOVQ ldy+48(FP), R10
	VMOVUPS (AX), Z16
	MOVQ CX, R8
	SHLQ $2, R8 // a row of x
	SHLQ $2, R10
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	TESTQ CX, CX
	JZ    store2

loop2:
	DECODE
	FMA2((SI), Z0, Z1)
	FMA2((SI)(R8*1), Z2, Z3)
	ADDQ $4, SI
	ADDQ $4, BX
	ADDQ $16, DI
	DECQ CX
	JNZ  loop2

store2:
	STORE2((DX), 64(DX), Z0, Z1)
	STORE2((DX)(R10*1), 64(DX)(R10*1), Z2, Z3)
	VZEROUPPER
	RET

// func q4r1(k int, x *float32, nib *byte, scale *float32, levels *[16]float32, y *float32)
// takes 1 row: 2 accumulators (Z0-Z1).
TEXT ·q4r1(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ nib+16(FP), DI
	MOVQ scale+24(FP), BX
	MOVQ levels+32(FP), AX
	MOVQ y+40(FP), DX
	VMOVUPS (AX), Z16
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	TESTQ CX, CX
	JZ    store1

loop1:
	DECODE
	FMA2((SI), Z0, Z1)
	ADDQ $4, SI
	ADDQ $4, BX
	ADDQ $16, DI
	DECQ CX
	JNZ  loop1

store1:
	STORE2((DX), 64(DX), Z0, Z1)
	VZEROUPPER
	RET
