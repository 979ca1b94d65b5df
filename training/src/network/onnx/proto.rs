//! The subset of ONNX's protobuf schema (`onnx.proto`, IR version 8) that a network export
//! writes: a model holding one graph of nodes, weight initialisers and typed inputs and
//! outputs. Field numbers are the schema's, so any ONNX reader (ONNX Runtime, `onnx` in
//! Python, Netron) reads the bytes.

/// A whole model: the IR version, the operator sets it uses and its graph.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ModelProto {
    /// ONNX IR version.
    #[prost(int64, tag = "1")]
    pub ir_version: i64,
    /// Who wrote the model.
    #[prost(string, tag = "2")]
    pub producer_name: String,
    /// The writer's version.
    #[prost(string, tag = "3")]
    pub producer_version: String,
    /// What the model is.
    #[prost(string, tag = "6")]
    pub doc_string: String,
    /// The computation.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// Operator sets the graph's nodes come from.
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
}

/// An operator set and its version.
#[derive(Clone, PartialEq, prost::Message)]
pub struct OperatorSetIdProto {
    /// Empty for the default ONNX operators.
    #[prost(string, tag = "1")]
    pub domain: String,
    /// The operator set's version.
    #[prost(int64, tag = "2")]
    pub version: i64,
}

/// A graph: nodes in topological order, constant tensors, inputs and outputs.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GraphProto {
    /// The nodes.
    #[prost(message, repeated, tag = "1")]
    pub node: Vec<NodeProto>,
    /// The graph's name.
    #[prost(string, tag = "2")]
    pub name: String,
    /// Constant tensors (weights), referred to by name.
    #[prost(message, repeated, tag = "5")]
    pub initializer: Vec<TensorProto>,
    /// The graph's inputs.
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// The graph's outputs.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
}

/// One operator applied to named values.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NodeProto {
    /// Names of the values it reads.
    #[prost(string, repeated, tag = "1")]
    pub input: Vec<String>,
    /// Names of the values it writes.
    #[prost(string, repeated, tag = "2")]
    pub output: Vec<String>,
    /// The node's name.
    #[prost(string, tag = "3")]
    pub name: String,
    /// The operator (`Conv`, `Gemm`, …).
    #[prost(string, tag = "4")]
    pub op_type: String,
    /// The operator's attributes.
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeProto>,
}

/// A named attribute of a node: a float, an integer or a list of integers here.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AttributeProto {
    /// The attribute's name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// A float value.
    #[prost(float, tag = "2")]
    pub f: f32,
    /// An integer value.
    #[prost(int64, tag = "3")]
    pub i: i64,
    /// A list of integers.
    #[prost(int64, repeated, tag = "8")]
    pub ints: Vec<i64>,
    /// Which of the value fields holds the value ([`ATTRIBUTE_FLOAT`], [`ATTRIBUTE_INT`],
    /// [`ATTRIBUTE_INTS`]).
    #[prost(int32, tag = "20")]
    pub r#type: i32,
}

/// `AttributeProto.type` of a single float.
pub const ATTRIBUTE_FLOAT: i32 = 1;
/// `AttributeProto.type` of a single integer.
pub const ATTRIBUTE_INT: i32 = 2;
/// `AttributeProto.type` of a list of integers.
pub const ATTRIBUTE_INTS: i32 = 7;

/// A constant tensor.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorProto {
    /// Its shape.
    #[prost(int64, repeated, tag = "1")]
    pub dims: Vec<i64>,
    /// Its element type ([`FLOAT`], [`INT64`]).
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    /// Its name, by which nodes read it.
    #[prost(string, tag = "8")]
    pub name: String,
    /// Its elements, little-endian, row-major.
    #[prost(bytes = "vec", tag = "9")]
    pub raw_data: Vec<u8>,
}

/// Element type of 32-bit floats.
pub const FLOAT: i32 = 1;
/// Element type of 64-bit integers.
pub const INT64: i32 = 7;

/// A graph input or output: its name and tensor type.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ValueInfoProto {
    /// The value's name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Its type.
    #[prost(message, optional, tag = "2")]
    pub r#type: Option<TypeProto>,
}

/// A value's type: a tensor here.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TypeProto {
    /// The tensor type.
    #[prost(message, optional, tag = "1")]
    pub tensor_type: Option<TensorTypeProto>,
}

/// A tensor type: element type and shape.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorTypeProto {
    /// Element type ([`FLOAT`]).
    #[prost(int32, tag = "1")]
    pub elem_type: i32,
    /// The shape.
    #[prost(message, optional, tag = "2")]
    pub shape: Option<TensorShapeProto>,
}

/// A tensor shape: one entry per dimension.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorShapeProto {
    /// The dimensions.
    #[prost(message, repeated, tag = "1")]
    pub dim: Vec<Dimension>,
}

/// A dimension: a fixed size or a symbolic name (the batch).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Dimension {
    /// A fixed size (0 when symbolic).
    #[prost(int64, optional, tag = "1")]
    pub dim_value: Option<i64>,
    /// A symbolic name (empty when fixed).
    #[prost(string, optional, tag = "2")]
    pub dim_param: Option<String>,
}
