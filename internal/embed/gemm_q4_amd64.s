//go:build amd64 && !noasm

#include "textflag.h"
#include "gemm_quant_amd64.h"

// The 4-bit kernels of gemm_quant.go: see gemm_quant_amd64.h.

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
