//go:build amd64 && !noasm

#include "textflag.h"

// The float16 kernels of gemm_half.go: as gemm_amd64.s's, for a panel of
// k rows of 16 float16 values, contiguous (32 bytes a row), each row
// widened to float32 by VCVTPH2PS as it is loaded.

// func panel4h(k int, x *float32, ldx int, p *uint16, y *float32, ldy int)
TEXT ·panel4h(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	MOVQ p+24(FP), DI
	MOVQ y+32(FP), DX
	MOVQ ldy+40(FP), R10
	SHLQ $2, R8
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
	JZ    store4h

loop4h:
	VCVTPH2PS    (DI), Y8
	VCVTPH2PS    16(DI), Y9
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
	ADDQ         $32, DI
	DECQ         CX
	JNZ          loop4h

store4h:
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

// func panel1h(k int, x *float32, p *uint16, y *float32)
// takes the panel's rows 4 at a time as panel1 does, widened into
// Y12-Y15.
TEXT ·panel1h(SB), NOSPLIT, $0-32
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ p+16(FP), DI
	MOVQ y+24(FP), DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	CMPQ CX, $4
	JLT  tail1h

loop1h:
	VBROADCASTSS (SI), Y8
	VCVTPH2PS    (DI), Y12
	VCVTPH2PS    16(DI), Y13
	VFMADD231PS  Y12, Y8, Y0
	VFMADD231PS  Y13, Y8, Y1
	VBROADCASTSS 4(SI), Y9
	VCVTPH2PS    32(DI), Y14
	VCVTPH2PS    48(DI), Y15
	VFMADD231PS  Y14, Y9, Y2
	VFMADD231PS  Y15, Y9, Y3
	VBROADCASTSS 8(SI), Y10
	VCVTPH2PS    64(DI), Y12
	VCVTPH2PS    80(DI), Y13
	VFMADD231PS  Y12, Y10, Y4
	VFMADD231PS  Y13, Y10, Y5
	VBROADCASTSS 12(SI), Y11
	VCVTPH2PS    96(DI), Y14
	VCVTPH2PS    112(DI), Y15
	VFMADD231PS  Y14, Y11, Y6
	VFMADD231PS  Y15, Y11, Y7
	ADDQ         $16, SI
	ADDQ         $128, DI
	SUBQ         $4, CX
	CMPQ         CX, $4
	JGE          loop1h

tail1h:
	TESTQ CX, CX
	JZ    sum1h

step1h:
	VBROADCASTSS (SI), Y8
	VCVTPH2PS    (DI), Y12
	VCVTPH2PS    16(DI), Y13
	VFMADD231PS  Y12, Y8, Y0
	VFMADD231PS  Y13, Y8, Y1
	ADDQ         $4, SI
	ADDQ         $32, DI
	DECQ         CX
	JNZ          step1h

sum1h:
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

// func panel8zh(k int, x *float32, ldx int, p *uint16, y *float32, ldy int)
// widens the panel's row into Z8 with AVX-512's VCVTPH2PS.
TEXT ·panel8zh(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	MOVQ p+24(FP), DI
	MOVQ y+32(FP), DX
	MOVQ ldy+40(FP), R10
	SHLQ $2, R8
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
	JZ    store8h

loop8h:
	VCVTPH2PS        (DI), Z8
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
	ADDQ             $32, DI
	DECQ             CX
	JNZ              loop8h

store8h:
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

// func halves(dst *uint16, src *float32, n int)
// rounds 8 values at a time to float16, to nearest (VCVTPS2PH's $0).
TEXT ·halves(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ   done

loop:
	VMOVUPS   (SI), Y0
	VCVTPS2PH $0, Y0, (DI)
	ADDQ      $32, SI
	ADDQ      $16, DI
	DECQ      CX
	JNZ       loop

done:
	VZEROUPPER
	RET

// func panel2h(k int, x *float32, ldx int, p *uint16, y *float32, ldy int)
// adds x's 2 rows times the panel to y's 2 rows: the rows n leaves after
// blocks of 4 or 8 share each widened row of the panel, where panel1h
// would widen it again for each. The panel's rows are taken 2 at a time,
// each into its own 4 accumulators (Y0-Y3, Y4-Y7), summed at the end.
TEXT ·panel2h(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	MOVQ p+24(FP), DI
	MOVQ y+32(FP), DX
	MOVQ ldy+40(FP), R10
	SHLQ $2, R8
	SHLQ $2, R10
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	CMPQ CX, $2
	JLT  tail2h

loop2h:
	VCVTPH2PS    (DI), Y8
	VCVTPH2PS    16(DI), Y9
	VBROADCASTSS (SI), Y10
	VBROADCASTSS (SI)(R8*1), Y11
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3
	VCVTPH2PS    32(DI), Y12
	VCVTPH2PS    48(DI), Y13
	VBROADCASTSS 4(SI), Y14
	VBROADCASTSS 4(SI)(R8*1), Y15
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y13, Y14, Y5
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	ADDQ         $8, SI
	ADDQ         $64, DI
	SUBQ         $2, CX
	CMPQ         CX, $2
	JGE          loop2h

tail2h:
	TESTQ CX, CX
	JZ    sum2h
	VCVTPH2PS    (DI), Y8
	VCVTPH2PS    16(DI), Y9
	VBROADCASTSS (SI), Y10
	VBROADCASTSS (SI)(R8*1), Y11
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3

sum2h:
	VADDPS  Y4, Y0, Y0
	VADDPS  Y5, Y1, Y1
	VADDPS  Y6, Y2, Y2
	VADDPS  Y7, Y3, Y3
	VADDPS  (DX), Y0, Y0
	VADDPS  32(DX), Y1, Y1
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VADDPS  (DX)(R10*1), Y2, Y2
	VADDPS  32(DX)(R10*1), Y3, Y3
	VMOVUPS Y2, (DX)(R10*1)
	VMOVUPS Y3, 32(DX)(R10*1)
	VZEROUPPER
	RET

// func panel4zh2(k int, x *float32, ldx int, p *uint16, ldp int, y *float32, ldy int)
// is panel4h for two panels side by side (the second ldp values after p),
// in zmm: 8 accumulators (Z0-Z7), as many as panel8zh keeps, so 4 rows
// take the FMAs as 8 do where panel4h's 16-wide rows left them half idle.
// Each value is summed in the order panel4h sums it: the same bits.
TEXT ·panel4zh2(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	MOVQ p+24(FP), DI
	MOVQ ldp+32(FP), R9
	MOVQ y+40(FP), DX
	MOVQ ldy+48(FP), R10
	SHLQ $2, R8
	SHLQ $1, R9
	SHLQ $2, R10
	LEAQ (R8)(R8*2), AX   // 3 rows of x
	LEAQ (R10)(R10*2), BX // 3 rows of y
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JZ    store4zh2

loop4zh2:
	VCVTPH2PS    (DI), Z8
	VCVTPH2PS    (DI)(R9*1), Z9
	VBROADCASTSS (SI), Z10
	VBROADCASTSS (SI)(R8*1), Z11
	VBROADCASTSS (SI)(R8*2), Z12
	VBROADCASTSS (SI)(AX*1), Z13
	VFMADD231PS  Z8, Z10, Z0
	VFMADD231PS  Z9, Z10, Z1
	VFMADD231PS  Z8, Z11, Z2
	VFMADD231PS  Z9, Z11, Z3
	VFMADD231PS  Z8, Z12, Z4
	VFMADD231PS  Z9, Z12, Z5
	VFMADD231PS  Z8, Z13, Z6
	VFMADD231PS  Z9, Z13, Z7
	ADDQ         $4, SI
	ADDQ         $32, DI
	DECQ         CX
	JNZ          loop4zh2

store4zh2:
	VADDPS  (DX), Z0, Z0
	VMOVUPS Z0, (DX)
	VADDPS  64(DX), Z1, Z1
	VMOVUPS Z1, 64(DX)
	VADDPS  (DX)(R10*1), Z2, Z2
	VMOVUPS Z2, (DX)(R10*1)
	VADDPS  64(DX)(R10*1), Z3, Z3
	VMOVUPS Z3, 64(DX)(R10*1)
	VADDPS  (DX)(R10*2), Z4, Z4
	VMOVUPS Z4, (DX)(R10*2)
	VADDPS  64(DX)(R10*2), Z5, Z5
	VMOVUPS Z5, 64(DX)(R10*2)
	VADDPS  (DX)(BX*1), Z6, Z6
	VMOVUPS Z6, (DX)(BX*1)
	VADDPS  64(DX)(BX*1), Z7, Z7
	VMOVUPS Z7, 64(DX)(BX*1)
	VZEROUPPER
	RET

// func panel2zh4(k int, x *float32, ldx int, p *uint16, ldp int, y *float32, ldy int)
// is panel2h for four panels side by side (ldp values apart), in zmm. As
// panel2h, the panels' rows go 2 at a time, the even ones into Z0-Z7 and
// the odd into Z16-Z23, summed at the end: the same bits as panel2h.
TEXT ·panel2zh4(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	MOVQ p+24(FP), DI
	MOVQ ldp+32(FP), R9
	MOVQ y+40(FP), DX
	MOVQ ldy+48(FP), R10
	SHLQ $2, R8
	SHLQ $1, R9
	SHLQ $2, R10
	LEAQ (R9)(R9*2), R11 // 3 panels on
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	CMPQ CX, $2
	JLT  tail2zh4

loop2zh4:
	VCVTPH2PS    (DI), Z8
	VCVTPH2PS    (DI)(R9*1), Z9
	VCVTPH2PS    (DI)(R9*2), Z10
	VCVTPH2PS    (DI)(R11*1), Z11
	VBROADCASTSS (SI), Z12
	VBROADCASTSS (SI)(R8*1), Z13
	VFMADD231PS  Z8, Z12, Z0
	VFMADD231PS  Z9, Z12, Z1
	VFMADD231PS  Z10, Z12, Z2
	VFMADD231PS  Z11, Z12, Z3
	VFMADD231PS  Z8, Z13, Z4
	VFMADD231PS  Z9, Z13, Z5
	VFMADD231PS  Z10, Z13, Z6
	VFMADD231PS  Z11, Z13, Z7
	VCVTPH2PS    32(DI), Z24
	VCVTPH2PS    32(DI)(R9*1), Z25
	VCVTPH2PS    32(DI)(R9*2), Z26
	VCVTPH2PS    32(DI)(R11*1), Z27
	VBROADCASTSS 4(SI), Z14
	VBROADCASTSS 4(SI)(R8*1), Z15
	VFMADD231PS  Z24, Z14, Z16
	VFMADD231PS  Z25, Z14, Z17
	VFMADD231PS  Z26, Z14, Z18
	VFMADD231PS  Z27, Z14, Z19
	VFMADD231PS  Z24, Z15, Z20
	VFMADD231PS  Z25, Z15, Z21
	VFMADD231PS  Z26, Z15, Z22
	VFMADD231PS  Z27, Z15, Z23
	ADDQ         $8, SI
	ADDQ         $64, DI
	SUBQ         $2, CX
	CMPQ         CX, $2
	JGE          loop2zh4

tail2zh4:
	TESTQ CX, CX
	JZ    sum2zh4
	VCVTPH2PS    (DI), Z8
	VCVTPH2PS    (DI)(R9*1), Z9
	VCVTPH2PS    (DI)(R9*2), Z10
	VCVTPH2PS    (DI)(R11*1), Z11
	VBROADCASTSS (SI), Z12
	VBROADCASTSS (SI)(R8*1), Z13
	VFMADD231PS  Z8, Z12, Z0
	VFMADD231PS  Z9, Z12, Z1
	VFMADD231PS  Z10, Z12, Z2
	VFMADD231PS  Z11, Z12, Z3
	VFMADD231PS  Z8, Z13, Z4
	VFMADD231PS  Z9, Z13, Z5
	VFMADD231PS  Z10, Z13, Z6
	VFMADD231PS  Z11, Z13, Z7

sum2zh4:
	VADDPS  Z16, Z0, Z0
	VADDPS  Z17, Z1, Z1
	VADDPS  Z18, Z2, Z2
	VADDPS  Z19, Z3, Z3
	VADDPS  Z20, Z4, Z4
	VADDPS  Z21, Z5, Z5
	VADDPS  Z22, Z6, Z6
	VADDPS  Z23, Z7, Z7
	VADDPS  (DX), Z0, Z0
	VMOVUPS Z0, (DX)
	VADDPS  64(DX), Z1, Z1
	VMOVUPS Z1, 64(DX)
	VADDPS  128(DX), Z2, Z2
	VMOVUPS Z2, 128(DX)
	VADDPS  192(DX), Z3, Z3
	VMOVUPS Z3, 192(DX)
	VADDPS  (DX)(R10*1), Z4, Z4
	VMOVUPS Z4, (DX)(R10*1)
	VADDPS  64(DX)(R10*1), Z5, Z5
	VMOVUPS Z5, 64(DX)(R10*1)
	VADDPS  128(DX)(R10*1), Z6, Z6
	VMOVUPS Z6, 128(DX)(R10*1)
	VADDPS  192(DX)(R10*1), Z7, Z7
	VMOVUPS Z7, 192(DX)(R10*1)
	VZEROUPPER
	RET
