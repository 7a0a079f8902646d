//go:build amd64 && !noasm

#include "textflag.h"
#include "gemm_quant_amd64.h"

// The int8 kernels of gemm_quant.go: see gemm_quant_amd64.h.

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
