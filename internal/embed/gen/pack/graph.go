package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// A graph is model.json's node list and the values of its weights.
type graph struct {
	ops    map[string]node      // by node name
	floats map[string][]float32 // float32 weights by name
	ints   map[string][]int32   // int32 weights by name
	shapes map[string][]int     // every weight's shape by name
}

type node struct {
	Op    string   `json:"op"`
	Input []string `json:"input"`
}

func parseGraph(files map[string][]byte) (*graph, error) {
	var m struct {
		Topology struct {
			Node []struct {
				Name string `json:"name"`
				node
			} `json:"node"`
		} `json:"modelTopology"`
		Manifest []struct {
			Paths   []string `json:"paths"`
			Weights []struct {
				Name  string `json:"name"`
				Shape []int  `json:"shape"`
				Dtype string `json:"dtype"`
			} `json:"weights"`
		} `json:"weightsManifest"`
	}
	if err := json.Unmarshal(files["package/dist/model.json"], &m); err != nil {
		return nil, fmt.Errorf("model.json: %w", err)
	}
	g := &graph{
		ops:    make(map[string]node),
		floats: make(map[string][]float32),
		ints:   make(map[string][]int32),
		shapes: make(map[string][]int),
	}
	for _, n := range m.Topology.Node {
		g.ops[n.Name] = n.node
	}
	for _, group := range m.Manifest {
		var buf []byte
		for _, p := range group.Paths {
			b, ok := files["package/dist/"+p]
			if !ok {
				return nil, fmt.Errorf("model.json: shard %s is not in the tarball", p)
			}
			buf = append(buf, b...)
		}
		off := 0
		for _, w := range group.Weights {
			n := 1
			for _, d := range w.Shape {
				n *= d
			}
			if off+4*n > len(buf) {
				return nil, fmt.Errorf("model.json: weight %s runs past the shards", w.Name)
			}
			b := buf[off : off+4*n]
			off += 4 * n
			g.shapes[w.Name] = w.Shape
			switch w.Dtype {
			case "float32":
				v := make([]float32, n)
				for i := range v {
					v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
				}
				g.floats[w.Name] = v
			case "int32":
				v := make([]int32, n)
				for i := range v {
					v[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
				}
				g.ints[w.Name] = v
			default:
				return nil, fmt.Errorf("model.json: weight %s has dtype %s", w.Name, w.Dtype)
			}
		}
		if off != len(buf) {
			return nil, fmt.Errorf("model.json: shards hold %d bytes, weights %d", len(buf), off)
		}
	}
	return g, nil
}

// Node name prefixes.
const (
	apply  = "module_apply_default/Encoder_en/KonaTransformer/"
	stack  = apply + "Encode/TransformerStack/"
	module = "module/Encoder_en/KonaTransformer/"
)

// wantOps counts each operation of the graph that package embed
// implements; another graph is refused rather than packed wrongly.
var wantOps = map[string]int{
	"Add": 17, "BatchMatMul": 4, "BiasAdd": 10, "Cast": 6, "ConcatV2": 12,
	"Const": 61, "Conv2D": 4, "Cos": 1, "ExpandDims": 12, "GatherNd": 4,
	"GatherV2": 11, "Greater": 1, "Less": 2, "LogicalNot": 1, "MatMul": 6,
	"Max": 1, "Maximum": 3, "Mean": 8, "Mul": 14, "Pack": 12,
	"Placeholder": 2, "Prod": 8, "Range": 1, "RealDiv": 1, "Relu": 2,
	"Reshape": 21, "Rsqrt": 5, "ScatterNd": 5, "Shape": 21, "Sin": 1,
	"Slice": 2, "Softmax": 2, "SparseToDense": 1, "SplitV": 2, "Square": 5, "Squeeze": 6, "StridedSlice": 24, "Sub": 4,
	"Sum": 3, "Tanh": 1, "Transpose": 8, "Where": 2,
}

// wantScalars are the graph's constants that package embed writes as
// literals.
var wantScalars = map[string]float64{
	apply + "ClipToMaxLength/Less/y":                                                                              128,
	apply + "Encode/SparseToDense/default_value":                                                                  -1,
	stack + "Layer_0/TransformerLayer/MultiheadAttention/mul/y":                                                   0.125,
	stack + "Layer_1/TransformerLayer/MultiheadAttention/mul/y":                                                   float64(float32(1 / math.Sqrt(128))),
	stack + "Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x":                                 float64(float32(1e-6)),
	stack + "Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y": -1e9,
	"module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y":                                        float64(float32(1e-12)),
	stack + "Layer_0/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3":        64,
	stack + "Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3":        128,
	stack + "Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2":        4,
}

// wantEdges are inputs package embed relies on that a reader would not
// guess: the first layer adds the token embeddings twice (once plain, once
// with the timing signal), takes its residual through a dense layer, and
// the second layer's residual is the first layer's output as it is.
var wantEdges = map[string][]string{
	stack + "Layer_0/add": {
		apply + "Encode/Scatter/ScatterNd",
		stack + "Layer_0/AddTimingSignal/Scatter/ScatterNd",
	},
	stack + "Layer_0/TransformerLayer/layer_postprocess/add": {
		stack + "Layer_0/TransformerLayer/MultiheadAttention/Squeeze_1",
		stack + "Layer_0/TransformerLayer/AdjustResidualInput/Scatter/ScatterNd",
	},
	stack + "Layer_1/TransformerLayer/layer_postprocess/add": {
		stack + "Layer_1/TransformerLayer/MultiheadAttention/Squeeze_1",
		stack + "Layer_0/TransformerLayer/FFN/layer_postprocess/add",
	},
	apply + "Maximum": {
		stack + "MaskLength/Sum",
		stack + "Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/ExpandDims/dim",
	},
}

// check reports the first way g differs from the graph package embed
// implements.
func (g *graph) check() error {
	count := make(map[string]int)
	for _, n := range g.ops {
		count[n.Op]++
	}
	for op := range count {
		if _, ok := wantOps[op]; !ok {
			return fmt.Errorf("operation %s is not implemented", op)
		}
	}
	for op, want := range wantOps {
		if count[op] != want {
			return fmt.Errorf("%d %s nodes, want %d", count[op], op, want)
		}
	}
	for name, want := range wantScalars {
		got, err := g.scalar(name)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("constant %s is %v, want %v", name, got, want)
		}
	}
	for name, want := range wantEdges {
		n, ok := g.ops[name]
		if !ok {
			return fmt.Errorf("no node %s", name)
		}
		if !slices.Equal(n.Input, want) {
			return fmt.Errorf("node %s has inputs %q, want %q", name, n.Input, want)
		}
	}
	return nil
}

func (g *graph) scalar(name string) (float64, error) {
	if v, ok := g.floats[name]; ok && len(v) == 1 {
		return float64(v[0]), nil
	}
	if v, ok := g.ints[name]; ok && len(v) == 1 {
		return float64(v[0]), nil
	}
	return 0, fmt.Errorf("no scalar constant %s", name)
}

// matrix returns the float32 weight name as rows×cols, checking that its
// elements number rows×cols (a 1×1 convolution kernel is a matrix).
func (g *graph) matrix(name string, rows, cols int) ([]float32, error) {
	v, ok := g.floats[name]
	if !ok {
		return nil, fmt.Errorf("no float32 weight %s", name)
	}
	if len(v) != rows*cols {
		return nil, fmt.Errorf("weight %s has shape %v, want %d×%d", name, g.shapes[name], rows, cols)
	}
	return v, nil
}
