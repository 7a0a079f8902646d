package main

import (
	"strconv"

	"github.com/mnemo-dev/mnemo/internal/embed/packfile"
)

type piece = packfile.Piece

// A weight names one tensor of the pack file: where it comes from in the
// graph and its shape as package embed reads it.
type weight struct {
	name       string // in the pack file
	graph      string // in model.json
	rows, cols int
	matrix     bool // a matrix multiplied by activations: int8 unless -f32
}

// weights lists the tensors package embed reads, in the order written.
func weights() []weight {
	ws := []weight{
		{"embed", "module/Embeddings_en", 8002, 256, true},
		{"timing", stack + "Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1", 1, 128, false},
	}
	for l, d := range []int{256, 512} {
		enc := apply + "Encode/Layer_" + itoa(l) + "/TransformerLayer/"
		mha := module + "Encode/Layer_" + itoa(l) + "/TransformerLayer/MultiheadAttention/"
		ffn := stack + "Layer_" + itoa(l) + "/TransformerLayer/FFN/"
		p := "l" + itoa(l) + "."
		ws = append(ws,
			weight{p + "ln1.scale", enc + "layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", 1, d, false},
			weight{p + "ln1.bias", enc + "layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", 1, d, false},
			weight{p + "qkv.w", mha + "qkv_transform_single/kernel/part_0", d, 3 * d, true},
			weight{p + "qkv.b", enc + "MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat", 1, 3 * d, false},
			weight{p + "out.w", mha + "output_transform_single/kernel/part_0", d, 512, true},
			weight{p + "out.b", enc + "MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat", 1, 512, false},
			weight{p + "ln2.scale", enc + "FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", 1, 512, false},
			weight{p + "ln2.bias", enc + "FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", 1, 512, false},
			weight{p + "ffn1.w", ffn + "conv1/Tensordot/Reshape_1", 512, 1536, true},
			weight{p + "ffn1.b", enc + "FFN/conv1/bias/ConcatPartitions/concat", 1, 1536, false},
			weight{p + "ffn2.w", ffn + "conv2/Tensordot/Reshape_1", 1536, 512, true},
			weight{p + "ffn2.b", enc + "FFN/conv2/bias/ConcatPartitions/concat", 1, 512, false},
		)
		if l == 0 {
			ws = append(ws,
				weight{p + "res.w", enc + "dense/kernel/ConcatPartitions/concat", 256, 512, true},
				weight{p + "res.b", enc + "dense/bias/ConcatPartitions/concat", 1, 512, false},
			)
		}
	}
	return append(ws,
		weight{"pool.w", "module/Encoder_en/hidden_layers/tanh_layer_0/weights", 512, 512, true},
		weight{"pool.b", "module/Encoder_en/hidden_layers/tanh_layer_0/bias", 1, 512, false},
	)
}

// encode returns the pack file: the vocabulary and every weight, matrices
// as 4-bit when q4 names them (or holds "all"), otherwise as int8 (per row
// for the embedding table, which is read a row at a time; per output
// column for the rest), or all as float32 with f32.
func encode(g *graph, vocab []piece, f32 bool, q4 map[string]bool) ([]byte, error) {
	var ts []packfile.Tensor
	for _, w := range weights() {
		v, err := g.matrix(w.graph, w.rows, w.cols)
		if err != nil {
			return nil, err
		}
		kind := packfile.F32
		switch {
		case f32 || !w.matrix:
		case q4[w.name] || q4["all"]:
			kind = packfile.Q4
		case w.name == "embed":
			kind = packfile.Q8Rows
		default:
			kind = packfile.Q8Cols
		}
		t, err := packfile.Encode(w.name, kind, w.rows, w.cols, v)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return packfile.Write(vocab, ts)
}

func itoa(i int) string { return strconv.Itoa(i) }
