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
