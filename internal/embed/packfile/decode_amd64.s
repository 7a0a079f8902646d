//go:build amd64 && !noasm

#include "textflag.h"

// func q4Decode(dst *float32, v *byte, scales *byte, n int, levels *[16]float32)
// decodes n whole groups of 32 [Q4] values: group g's scale is the
// bfloat16 at scales+2g, its values the 16 bytes at v+16g, two to a byte
// (the first in the low nibble). Per group the 16 levels are scaled into
// Y10-Y11; each value's nibble, widened to 32 bits, picks its level with
// two VPERMPS (levels 0-7 and 8-15) and a blend on the nibble's bit 3.
TEXT ·q4Decode(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ v+8(FP), SI
	MOVQ scales+16(FP), BX
	MOVQ n+24(FP), CX
	MOVQ levels+32(FP), AX
	VMOVUPS (AX), Y14
	VMOVUPS 32(AX), Y15
	MOVQ    $0x0f0f0f0f, DX
	VMOVQ   DX, X13
	VPBROADCASTD X13, X13
	TESTQ CX, CX
	JZ    done

loop:
	MOVWLZX (BX), DX
	SHLL    $16, DX
	VMOVQ   DX, X12
	VBROADCASTSS X12, Y12
	VMULPS  Y12, Y14, Y10
	VMULPS  Y12, Y15, Y11
	VMOVDQU (SI), X0
	VPSRLW  $4, X0, X1
	VPAND   X13, X0, X0
	VPAND   X13, X1, X1
	VPUNPCKLBW X1, X0, X2 // values 0-15, in order
	VPUNPCKHBW X1, X0, X3 // values 16-31
	VPMOVZXBD X2, Y4
	VPSRLDQ   $8, X2, X2
	VPMOVZXBD X2, Y5
	VPMOVZXBD X3, Y6
	VPSRLDQ   $8, X3, X3
	VPMOVZXBD X3, Y7

#define LEVELS(idx, off) \
	VPERMPS   Y10, idx, Y8; \
	VPERMPS   Y11, idx, Y9; \
	VPSLLD    $28, idx, idx; \
	VBLENDVPS idx, Y9, Y8, Y8; \
	VMOVUPS   Y8, off(DI)

	LEVELS(Y4, 0)
	LEVELS(Y5, 32)
	LEVELS(Y6, 64)
	LEVELS(Y7, 96)

	ADDQ $16, SI
	ADDQ $2, BX
	ADDQ $128, DI
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET

// func q8Decode(dst *float32, v *byte, scale *float32, n int)
// decodes n·8 [Q8Cols] values: each int8 of v widened, converted and
// multiplied by its column's scale, 8 at a time.
TEXT ·q8Decode(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ v+8(FP), SI
	MOVQ scale+16(FP), BX
	MOVQ n+24(FP), CX
	TESTQ CX, CX
	JZ    done8

loop8:
	VPMOVSXBD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    (BX), Y0, Y0
	VMOVUPS   Y0, (DI)
	ADDQ      $8, SI
	ADDQ      $32, BX
	ADDQ      $32, DI
	DECQ      CX
	JNZ       loop8

done8:
	VZEROUPPER
	RET
