#include "textflag.h"

// func dotsAVX2(codes []byte, scales []float32, q []float32, out []float32, dim int)
//
// SI: the vector, R8: its scale, DX: q, DI: its out, CX: vectors left,
// R9: dim, R10: dim rounded down to 32, AX: the value at in the vector.
TEXT ·dotsAVX2(SB), NOSPLIT, $0-104
	MOVQ codes_base+0(FP), SI
	MOVQ scales_base+24(FP), R8
	MOVQ q_base+48(FP), DX
	MOVQ out_base+72(FP), DI
	MOVQ out_len+80(FP), CX
	MOVQ dim+96(FP), R9
	MOVQ R9, R10
	ANDQ $-32, R10
	TESTQ CX, CX
	JZ   done

vector:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ   AX, AX
	TESTQ  R10, R10
	JZ     eights

thirtytwos:
	VPMOVSXBD   (SI)(AX*1), Y4
	VPMOVSXBD   8(SI)(AX*1), Y5
	VPMOVSXBD   16(SI)(AX*1), Y6
	VPMOVSXBD   24(SI)(AX*1), Y7
	VCVTDQ2PS   Y4, Y4
	VCVTDQ2PS   Y5, Y5
	VCVTDQ2PS   Y6, Y6
	VCVTDQ2PS   Y7, Y7
	VFMADD231PS (DX)(AX*4), Y4, Y0
	VFMADD231PS 32(DX)(AX*4), Y5, Y1
	VFMADD231PS 64(DX)(AX*4), Y6, Y2
	VFMADD231PS 96(DX)(AX*4), Y7, Y3
	ADDQ        $32, AX
	CMPQ        AX, R10
	JL          thirtytwos

eights:
	CMPQ        AX, R9
	JGE         sum
	VPMOVSXBD   (SI)(AX*1), Y4
	VCVTDQ2PS   Y4, Y4
	VFMADD231PS (DX)(AX*4), Y4, Y0
	ADDQ        $8, AX
	JMP         eights

sum:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0
	VMULSS       (R8), X0, X0
	VMOVSS       X0, (DI)
	ADDQ         R9, SI
	ADDQ         $4, R8
	ADDQ         $4, DI
	DECQ         CX
	JNZ          vector

done:
	VZEROUPPER
	RET

// func dotsAVX512(codes []byte, scales []float32, q []float32, out []float32, dim int)
//
// dotsAVX2 with its four sums two to a zmm register: Z0 holds Y0 and Y1
// (values 0-15 of each 32), Z2 holds Y2 and Y3 (16-31). Each lane adds
// the same products in the same order as dotsAVX2's, and the halves are
// split back into Y0-Y3 before the rest of a vector and the sum, which
// are dotsAVX2's: the results are the same to the bit. Registers as there.
TEXT ·dotsAVX512(SB), NOSPLIT, $0-104
	MOVQ codes_base+0(FP), SI
	MOVQ scales_base+24(FP), R8
	MOVQ q_base+48(FP), DX
	MOVQ out_base+72(FP), DI
	MOVQ out_len+80(FP), CX
	MOVQ dim+96(FP), R9
	MOVQ R9, R10
	ANDQ $-32, R10
	TESTQ CX, CX
	JZ   done512

vector512:
	VPXORD Z0, Z0, Z0
	VPXORD Z2, Z2, Z2
	XORQ   AX, AX
	TESTQ  R10, R10
	JZ     split512

thirtytwos512:
	VPMOVSXBD   (SI)(AX*1), Z4
	VPMOVSXBD   16(SI)(AX*1), Z6
	VCVTDQ2PS   Z4, Z4
	VCVTDQ2PS   Z6, Z6
	VFMADD231PS (DX)(AX*4), Z4, Z0
	VFMADD231PS 64(DX)(AX*4), Z6, Z2
	ADDQ        $32, AX
	CMPQ        AX, R10
	JL          thirtytwos512

split512:
	VEXTRACTF64X4 $1, Z0, Y1
	VEXTRACTF64X4 $1, Z2, Y3

eights512:
	CMPQ        AX, R9
	JGE         sum512
	VPMOVSXBD   (SI)(AX*1), Y4
	VCVTDQ2PS   Y4, Y4
	VFMADD231PS (DX)(AX*4), Y4, Y0
	ADDQ        $8, AX
	JMP         eights512

sum512:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0
	VMULSS       (R8), X0, X0
	VMOVSS       X0, (DI)
	ADDQ         R9, SI
	ADDQ         $4, R8
	ADDQ         $4, DI
	DECQ         CX
	JNZ          vector512

done512:
	VZEROUPPER
	RET
