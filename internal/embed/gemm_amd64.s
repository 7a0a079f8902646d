//go:build amd64 && !noasm

#include "textflag.h"

// The kernels of gemm.go (see there). A panel is k rows of 16 float32
// values, ldp values apart (16 when its rows are contiguous); x's rows
// are ldx values apart, y's ldy.

// func panel4(k int, x *float32, ldx int, p *float32, ldp int, y *float32, ldy int)
// adds x's 4 rows times the panel to y's 4 rows of 16 values: 8
// accumulators (Y0-Y7), the panel's row in Y8-Y9, x broadcast in Y10-Y11.
TEXT ·panel4(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	MOVQ p+24(FP), DI
	MOVQ ldp+32(FP), R9
	MOVQ y+40(FP), DX
	MOVQ ldy+48(FP), R10
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	LEAQ (R8)(R8*2), AX   // 3 rows of x
	LEAQ (R10)(R10*2), BX // 3 rows of y
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JZ    store4

loop4:
	VMOVUPS      (DI), Y8
	VMOVUPS      32(DI), Y9
	VBROADCASTSS (SI), Y10
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VBROADCASTSS (SI)(R8*1), Y11
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3
	VBROADCASTSS (SI)(R8*2), Y10
	VFMADD231PS  Y8, Y10, Y4
	VFMADD231PS  Y9, Y10, Y5
	VBROADCASTSS (SI)(AX*1), Y11
	VFMADD231PS  Y8, Y11, Y6
	VFMADD231PS  Y9, Y11, Y7
	ADDQ         $4, SI
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop4

store4:
	VADDPS  (DX), Y0, Y0
	VADDPS  32(DX), Y1, Y1
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VADDPS  (DX)(R10*1), Y2, Y2
	VADDPS  32(DX)(R10*1), Y3, Y3
	VMOVUPS Y2, (DX)(R10*1)
	VMOVUPS Y3, 32(DX)(R10*1)
	VADDPS  (DX)(R10*2), Y4, Y4
	VADDPS  32(DX)(R10*2), Y5, Y5
	VMOVUPS Y4, (DX)(R10*2)
	VMOVUPS Y5, 32(DX)(R10*2)
	VADDPS  (DX)(BX*1), Y6, Y6
	VADDPS  32(DX)(BX*1), Y7, Y7
	VMOVUPS Y6, (DX)(BX*1)
	VMOVUPS Y7, 32(DX)(BX*1)
	VZEROUPPER
	RET

// func panel1(k int, x *float32, p *float32, ldp int, y *float32)
// adds x's one row times the panel to y's 16 values. One row alone would
// keep only 2 accumulators busy, so the panel's rows are taken 4 at a
// time, each into its own pair (Y0-Y7), summed at the end.
TEXT ·panel1(SB), NOSPLIT, $0-40
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ p+16(FP), DI
	MOVQ ldp+24(FP), R9
	MOVQ y+32(FP), DX
	SHLQ $2, R9
	LEAQ (R9)(R9*2), R11 // 3 rows of the panel
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	CMPQ CX, $4
	JLT  tail1

loop1:
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (DI), Y8, Y0
	VFMADD231PS  32(DI), Y8, Y1
	VBROADCASTSS 4(SI), Y9
	VFMADD231PS  (DI)(R9*1), Y9, Y2
	VFMADD231PS  32(DI)(R9*1), Y9, Y3
	VBROADCASTSS 8(SI), Y10
	VFMADD231PS  (DI)(R9*2), Y10, Y4
	VFMADD231PS  32(DI)(R9*2), Y10, Y5
	VBROADCASTSS 12(SI), Y11
	VFMADD231PS  (DI)(R11*1), Y11, Y6
	VFMADD231PS  32(DI)(R11*1), Y11, Y7
	ADDQ         $16, SI
	LEAQ         (DI)(R9*4), DI
	SUBQ         $4, CX
	CMPQ         CX, $4
	JGE          loop1

tail1:
	TESTQ CX, CX
	JZ    sum1

step1:
	VBROADCASTSS (SI), Y8
	VFMADD231PS  (DI), Y8, Y0
	VFMADD231PS  32(DI), Y8, Y1
	ADDQ         $4, SI
	ADDQ         R9, DI
	DECQ         CX
	JNZ          step1

sum1:
	VADDPS  Y2, Y0, Y0
	VADDPS  Y3, Y1, Y1
	VADDPS  Y6, Y4, Y4
	VADDPS  Y7, Y5, Y5
	VADDPS  Y4, Y0, Y0
	VADDPS  Y5, Y1, Y1
	VADDPS  (DX), Y0, Y0
	VADDPS  32(DX), Y1, Y1
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VZEROUPPER
	RET

// func panel8z(k int, x *float32, ldx int, p *float32, ldp int, y *float32, ldy int)
// is panel4 for 8 rows with AVX-512: 8 zmm accumulators, one load of the
// panel's row, each x broadcast from memory by its FMA.
TEXT ·panel8z(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	MOVQ p+24(FP), DI
	MOVQ ldp+32(FP), R9
	MOVQ y+40(FP), DX
	MOVQ ldy+48(FP), R10
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	LEAQ (R8)(R8*2), AX   // 3 rows of x
	LEAQ (SI)(R8*4), R11  // x's row 4
	LEAQ (R10)(R10*2), BX // 3 rows of y
	LEAQ (DX)(R10*4), R12 // y's row 4
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JZ    store8

loop8:
	VMOVUPS          (DI), Z8
	VFMADD231PS.BCST (SI), Z8, Z0
	VFMADD231PS.BCST (SI)(R8*1), Z8, Z1
	VFMADD231PS.BCST (SI)(R8*2), Z8, Z2
	VFMADD231PS.BCST (SI)(AX*1), Z8, Z3
	VFMADD231PS.BCST (R11), Z8, Z4
	VFMADD231PS.BCST (R11)(R8*1), Z8, Z5
	VFMADD231PS.BCST (R11)(R8*2), Z8, Z6
	VFMADD231PS.BCST (R11)(AX*1), Z8, Z7
	ADDQ             $4, SI
	ADDQ             $4, R11
	ADDQ             R9, DI
	DECQ             CX
	JNZ              loop8

store8:
	VADDPS  (DX), Z0, Z0
	VMOVUPS Z0, (DX)
	VADDPS  (DX)(R10*1), Z1, Z1
	VMOVUPS Z1, (DX)(R10*1)
	VADDPS  (DX)(R10*2), Z2, Z2
	VMOVUPS Z2, (DX)(R10*2)
	VADDPS  (DX)(BX*1), Z3, Z3
	VMOVUPS Z3, (DX)(BX*1)
	VADDPS  (R12), Z4, Z4
	VMOVUPS Z4, (R12)
	VADDPS  (R12)(R10*1), Z5, Z5
	VMOVUPS Z5, (R12)(R10*1)
	VADDPS  (R12)(R10*2), Z6, Z6
	VMOVUPS Z6, (R12)(R10*2)
	VADDPS  (R12)(BX*1), Z7, Z7
	VMOVUPS Z7, (R12)(BX*1)
	VZEROUPPER
	RET
