//! The policy/value network as an ONNX graph (operator set 17), so ONNX Runtime, or any other
//! ONNX reader, computes exactly what [`PolicyValueNet::forward`] computes. The batch and the
//! board's depth and width are symbolic: one graph serves every board size class.
//!
//! Inputs `planes` `[batch, planes, depth, width]` and `globals` `[batch, globals]`; outputs
//! `policy_planes` `[batch, policy planes × depth × width]`, `policy_globals` `[batch,
//! policy globals]`, `value` `[batch, 1]` and, for a network with a margin head, `margin`
//! `[batch, 1]`, as in [`crate::network::net::Outputs`].
//!
//! Both architectures export. The second's pooling over the real cells (the mask plane's) is
//! a `Slice` of that plane from the input, a `Mul` by it, `ReduceSum` over the cells divided
//! by the real cells' count (`Max` with 1) for the mean and `ReduceMax` of the masked values
//! for the max; a block's map of its pooled channels is a `Gemm` reshaped to `[batch,
//! channels, 1, 1]` and broadcast-added to every cell.

use super::proto::*;
use crate::network::net::PolicyValueNet;
use burn::module::Param;
use burn::nn::conv::Conv2d;
use burn::nn::Linear;
use burn::tensor::Tensor;
use prost::Message;

/// Names of the graph's inputs and outputs.
pub mod names {
    /// Observation planes input.
    pub const PLANES: &str = "planes";
    /// Global features input.
    pub const GLOBALS: &str = "globals";
    /// Policy planes output, flattened per position.
    pub const POLICY_PLANES: &str = "policy_planes";
    /// Global policy logits output.
    pub const POLICY_GLOBALS: &str = "policy_globals";
    /// Value output.
    pub const VALUE: &str = "value";
    /// Margin output, of a network with a margin head only.
    pub const MARGIN: &str = "margin";
}

/// The ONNX operator set the graph uses.
const OPSET: i64 = 17;
/// The ONNX IR version written.
const IR_VERSION: i64 = 8;

/// The network as a serialised ONNX model, of either architecture.
pub fn to_onnx(net: &PolicyValueNet) -> Result<Vec<u8>, String> {
    let mut g = Graph::default();
    let planes_in = net.stem.weight.val().dims()[1];
    let globals_in = net.globals_in.weight.val().dims()[0];
    let pools = net.own_value || net.blocks.iter().any(|b| b.pool.is_some());
    let cells = net.mask_plane.filter(|_| pools).map(|plane| g.real_cells(plane));

    // Trunk: stem convolution plus the globals' linear map added to every cell.
    let stem = g.conv("stem", names::PLANES, &net.stem)?;
    let mixed = g.linear("globals_in", names::GLOBALS, &net.globals_in)?;
    let shape = g.constant_i64("cell_broadcast_shape", &[0, -1, 1, 1]);
    let mixed = g.node("Reshape", "globals_in_cells", &[&mixed, &shape], vec![]);
    let sum = g.node("Add", "stem_add", &[&stem, &mixed], vec![]);
    let mut x = g.node("Relu", "stem_relu", &[&sum], vec![]);
    for (i, block) in net.blocks.iter().enumerate() {
        let y = g.conv(&format!("block{i}_first"), &x, &block.first)?;
        let mut y = g.node("Relu", &format!("block{i}_first_relu"), &[&y], vec![]);
        if let Some(pool) = &block.pool {
            // The second architecture: a map of the pooled channels added to every cell.
            let pooled = g.pool_cells(&format!("block{i}_pool"), &y, cells.as_ref());
            let bias = g.linear(&format!("block{i}_pool_linear"), &pooled, pool)?;
            let bias = g.node("Reshape", &format!("block{i}_pool_cells"), &[&bias, &shape], vec![]);
            y = g.node("Add", &format!("block{i}_pool_add"), &[&y, &bias], vec![]);
        }
        let y = g.conv(&format!("block{i}_second"), &y, &block.second)?;
        let sum = g.node("Add", &format!("block{i}_add"), &[&x, &y], vec![]);
        x = g.node("Relu", &format!("block{i}_relu"), &[&sum], vec![]);
    }

    // Policy planes: a 1×1 convolution, flattened per position.
    let policy = g.conv("policy_planes_conv", &x, &net.policy_planes)?;
    g.named_node("Flatten", names::POLICY_PLANES, &[&policy], vec![int("axis", 1)]);

    // The cells' mean with the globals through the hidden layer, then the global policy head.
    let pooled = g.node("GlobalAveragePool", "pool", &[&x], vec![]);
    let pooled = g.node("Flatten", "pool_flat", &[&pooled], vec![int("axis", 1)]);
    let joined = g.node("Concat", "pool_globals", &[&pooled, names::GLOBALS], vec![int("axis", 1)]);
    let hidden = g.linear("hidden", &joined, &net.hidden)?;
    let hidden = g.node("Relu", "hidden_relu", &[&hidden], vec![]);
    let logits = g.linear("policy_globals_linear", &hidden, &net.policy_globals)?;
    g.named_node("Identity", names::POLICY_GLOBALS, &[&logits], vec![]);

    // The value head: on the policy's hidden layer, or (the second architecture) on its own
    // hidden layer over the trunk's mean and max over the real cells with the globals.
    let v = if net.own_value {
        let pooled = g.pool_cells("value_pool", &x, cells.as_ref());
        let joined = g.node("Concat", "value_pool_globals", &[&pooled, names::GLOBALS], vec![int("axis", 1)]);
        g.linear("value_hidden", &joined, &net.value_hidden)?
    } else {
        g.linear("value_hidden", &hidden, &net.value_hidden)?
    };
    let v = g.node("Relu", "value_hidden_relu", &[&v], vec![]);
    let value = g.linear("value_linear", &v, &net.value)?;
    g.named_node("Tanh", names::VALUE, &[&value], vec![]);
    let mut outputs = vec![
        tensor_info(names::POLICY_PLANES, &[BATCH, Dim::Named("policy_cells")]),
        tensor_info(names::POLICY_GLOBALS, &[BATCH, Dim::Fixed(net.policy_globals.weight.val().dims()[1])]),
        tensor_info(names::VALUE, &[BATCH, Dim::Fixed(1)]),
    ];
    if let Some(margin) = &net.margin {
        let m = g.linear("margin_linear", &v, margin)?;
        g.named_node("Tanh", names::MARGIN, &[&m], vec![]);
        outputs.push(tensor_info(names::MARGIN, &[BATCH, Dim::Fixed(1)]));
    }

    let model = ModelProto {
        ir_version: IR_VERSION,
        producer_name: "tde".into(),
        producer_version: env!("CARGO_PKG_VERSION").into(),
        doc_string: "The Drowned Earth policy/value network".into(),
        opset_import: vec![OperatorSetIdProto { domain: String::new(), version: OPSET }],
        graph: Some(GraphProto {
            name: "policy_value".into(),
            node: g.nodes,
            initializer: g.initializers,
            input: vec![
                tensor_info(
                    names::PLANES,
                    &[BATCH, Dim::Fixed(planes_in), Dim::Named("depth"), Dim::Named("width")],
                ),
                tensor_info(names::GLOBALS, &[BATCH, Dim::Fixed(globals_in)]),
            ],
            output: outputs,
        }),
    };
    Ok(model.encode_to_vec())
}

/// The real cells of the board, for pooling over them: graph values of the mask plane
/// (`[batch, 1, depth, width]`, 1 or 0), the number of real cells per position (`[batch, 1,
/// 1, 1]`, at least 1) and the cell axes (`[2, 3]`).
struct Cells {
    mask: String,
    count: String,
    axes: String,
}

/// The graph under construction.
#[derive(Default)]
struct Graph {
    nodes: Vec<NodeProto>,
    initializers: Vec<TensorProto>,
}

impl Graph {
    /// Add a node writing the value `name`; returns the name.
    fn named_node(
        &mut self,
        op: &str,
        name: &str,
        inputs: &[&str],
        attribute: Vec<AttributeProto>,
    ) -> String {
        self.nodes.push(NodeProto {
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: vec![name.to_string()],
            name: name.to_string(),
            op_type: op.to_string(),
            attribute,
        });
        name.to_string()
    }

    /// Add a node whose output is named after the node.
    fn node(&mut self, op: &str, name: &str, inputs: &[&str], attribute: Vec<AttributeProto>) -> String {
        self.named_node(op, &format!("{name}_out"), inputs, attribute)
    }

    /// Add a float weight as an initialiser; returns its name.
    fn weight<const D: usize>(&mut self, name: &str, param: &Param<Tensor<D>>) -> Result<String, String> {
        let tensor = param.val();
        let dims = tensor.dims().iter().map(|&d| d as i64).collect();
        let values = tensor.into_data().try_to_vec::<f32>().map_err(|e| format!("weight {name}: {e:?}"))?;
        self.initializers.push(TensorProto {
            dims,
            data_type: FLOAT,
            name: name.to_string(),
            raw_data: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        });
        Ok(name.to_string())
    }

    /// Add a constant vector of integers (a shape) as an initialiser.
    fn constant_i64(&mut self, name: &str, values: &[i64]) -> String {
        self.initializers.push(TensorProto {
            dims: vec![values.len() as i64],
            data_type: INT64,
            name: name.to_string(),
            raw_data: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        });
        name.to_string()
    }

    /// The real cells: the observation plane `plane` of the input and its count.
    fn real_cells(&mut self, plane: usize) -> Cells {
        let start = self.constant_i64("mask_start", &[plane as i64]);
        let end = self.constant_i64("mask_end", &[plane as i64 + 1]);
        let channel_axis = self.constant_i64("mask_axis", &[1]);
        let mask = self.node("Slice", "mask", &[names::PLANES, &start, &end, &channel_axis], vec![]);
        let axes = self.constant_i64("cell_axes", &[2, 3]);
        let count = self.node("ReduceSum", "mask_sum", &[&mask, &axes], vec![]);
        let one = self.node("Constant", "one", &[], vec![float("value_float", 1.0)]);
        let count = self.node("Max", "mask_count", &[&count, &one], vec![]);
        Cells { mask, count, axes }
    }

    /// The mean and max of `x` (`[batch, channels, depth, width]`, ReLU outputs) over the
    /// real cells, or over every cell without them, concatenated: `[batch, 2 × channels]`, as
    /// [`crate::network::net::pool_cells`] computes them. As there, the max runs over the masked values, padding
    /// at 0, which is the real cells' max since those are at least 0.
    fn pool_cells(&mut self, name: &str, x: &str, cells: Option<&Cells>) -> String {
        let (mean, max) = match cells {
            Some(cells) => {
                let kept = self.node("Mul", &format!("{name}_kept"), &[x, &cells.mask], vec![]);
                let sum = self.node("ReduceSum", &format!("{name}_sum"), &[&kept, &cells.axes], vec![]);
                let mean = self.node("Div", &format!("{name}_mean"), &[&sum, &cells.count], vec![]);
                let max =
                    self.node("ReduceMax", &format!("{name}_max"), &[&kept], vec![ints("axes", &[2, 3])]);
                (mean, max)
            }
            None => (
                self.node("GlobalAveragePool", &format!("{name}_mean"), &[x], vec![]),
                self.node("GlobalMaxPool", &format!("{name}_max"), &[x], vec![]),
            ),
        };
        let both = self.node("Concat", &format!("{name}_both"), &[&mean, &max], vec![int("axis", 1)]);
        self.node("Flatten", &format!("{name}_flat"), &[&both], vec![int("axis", 1)])
    }

    /// A convolution with "same" padding, stride 1, as burn's layer computes it.
    fn conv(&mut self, name: &str, input: &str, conv: &Conv2d) -> Result<String, String> {
        let weight = self.weight(&format!("{name}.weight"), &conv.weight)?;
        let [_, _, kh, kw] = conv.weight.val().dims();
        if conv.stride != [1, 1] || conv.dilation != [1, 1] || conv.groups != 1 || kh % 2 == 0 || kw % 2 == 0
        {
            return Err(format!(
                "layer {name}: only odd kernels with stride 1, no dilation or groups export"
            ));
        }
        let mut inputs = vec![input.to_string(), weight];
        if let Some(bias) = &conv.bias {
            inputs.push(self.weight(&format!("{name}.bias"), bias)?);
        }
        let (ph, pw) = ((kh / 2) as i64, (kw / 2) as i64);
        let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        Ok(self.node(
            "Conv",
            name,
            &inputs,
            vec![ints("kernel_shape", &[kh as i64, kw as i64]), ints("pads", &[ph, pw, ph, pw])],
        ))
    }

    /// A linear layer (`x W + b`, burn's row layout `W: [in, out]`) as a `Gemm`.
    fn linear(&mut self, name: &str, input: &str, linear: &Linear) -> Result<String, String> {
        let weight = self.weight(&format!("{name}.weight"), &linear.weight)?;
        let mut inputs = vec![input.to_string(), weight];
        if let Some(bias) = &linear.bias {
            inputs.push(self.weight(&format!("{name}.bias"), bias)?);
        }
        let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        Ok(self.node("Gemm", name, &inputs, vec![]))
    }
}

/// A float attribute.
fn float(name: &str, value: f32) -> AttributeProto {
    AttributeProto { name: name.into(), f: value, i: 0, ints: vec![], r#type: ATTRIBUTE_FLOAT }
}

/// An integer attribute.
fn int(name: &str, value: i64) -> AttributeProto {
    AttributeProto { name: name.into(), f: 0.0, i: value, ints: vec![], r#type: ATTRIBUTE_INT }
}

/// An attribute holding a list of integers.
fn ints(name: &str, values: &[i64]) -> AttributeProto {
    AttributeProto { name: name.into(), f: 0.0, i: 0, ints: values.to_vec(), r#type: ATTRIBUTE_INTS }
}

/// A dimension of a graph input or output.
enum Dim {
    Fixed(usize),
    Named(&'static str),
}

/// The symbolic batch dimension.
const BATCH: Dim = Dim::Named("batch");

/// A float tensor input or output.
fn tensor_info(name: &str, dims: &[Dim]) -> ValueInfoProto {
    let dim = dims
        .iter()
        .map(|d| {
            let (value, param) = match d {
                Dim::Named(n) => (None, Some(*n)),
                Dim::Fixed(v) => (Some(*v as i64), None),
            };
            Dimension { dim_value: value, dim_param: param.map(str::to_string) }
        })
        .collect();
    ValueInfoProto {
        name: name.into(),
        r#type: Some(TypeProto {
            tensor_type: Some(TensorTypeProto { elem_type: FLOAT, shape: Some(TensorShapeProto { dim }) }),
        }),
    }
}
