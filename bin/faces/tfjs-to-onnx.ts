/**
 * Read first: converts a TensorFlow.js graph model (model.json + .bin shards, as @vladmandic/human ships its
 * models) into ONNX bytes that onnxruntime-node runs. A build tool: bin/faces/build-models.ts runs it and
 * writes the .onnx files the analyser loads (functions/adapters/faces/face-models.ts); no function imports it (test/assets/load.test.ts
 * checks that no bundle carries onnx-proto). It handles exactly the ops
 * of human's blazeface, facemesh and faceres graphs (MobileNet-style, NHWC) and throws on anything else,
 * so a changed model fails loudly instead of computing something else.
 *
 * TensorFlow lays images out NHWC, ONNX's Conv wants NCHW: the input is transposed once, convolution
 * kernels are re-laid out (HWIO → OIHW; depthwise HWCM → (C·M)1HW with group C), per-channel constants of
 * elementwise ops become [C,1,1], and a Reshape (or an output) of a 4-D tensor transposes back to NHWC
 * first, so that flattening orders the values as TensorFlow does. Checked against tfjs on random input
 * (face-lab verify-onnx): max |Δ| 4.6e-5 (blazeface), 3.5e-6 (faceres), 1.2e-4 (facemesh).
 */
import fs from 'node:fs';
import path from 'node:path';
import { onnx } from 'onnx-proto';
import * as v from 'valibot';
import type { FaceModelSpec } from '../../functions/adapters/faces/face-models';

const AttrSchema = v.object({
  s: v.optional(v.string()),
  b: v.optional(v.boolean()),
  list: v.optional(
    v.object({
      i: v.optional(v.array(v.union([v.string(), v.number()]))),
      s: v.optional(v.array(v.string())),
    }),
  ),
});
type Attr = v.InferOutput<typeof AttrSchema>;

const TfjsModelSchema = v.object({
  modelTopology: v.object({
    node: v.array(
      v.object({
        name: v.string(),
        op: v.string(),
        input: v.optional(v.array(v.string()), []),
        attr: v.optional(v.record(v.string(), AttrSchema), {}),
      }),
    ),
  }),
  weightsManifest: v.array(
    v.object({
      paths: v.array(v.string()),
      weights: v.array(
        v.object({
          name: v.string(),
          shape: v.array(v.number()),
          dtype: v.string(),
          quantization: v.optional(
            v.object({ dtype: v.string(), scale: v.optional(v.number()), min: v.optional(v.number()) }),
          ),
        }),
      ),
    }),
  ),
});
type TfjsNode = v.InferOutput<typeof TfjsModelSchema>['modelTopology']['node'][number];

interface Weight {
  shape: number[];
  data: Float32Array | Int32Array;
}

export type ConversionSpec = FaceModelSpec;

export interface ConvertedModel {
  bytes: Uint8Array;
  inputName: string;
  /** The ONNX output names, in the order of `spec.outputs`. */
  outputNames: string[];
}

const HALF_TO_FLOAT = (() => {
  const table = new Float32Array(65536);
  for (let half = 0; half < 65536; half += 1) {
    const sign = half & 0x8000 ? -1 : 1;
    const exponent = (half & 0x7c00) >> 10;
    const fraction = half & 0x03ff;
    if (exponent === 0) table[half] = sign * 2 ** -14 * (fraction / 1024);
    else if (exponent === 0x1f) table[half] = fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
    else table[half] = sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  }
  return table;
})();

const readWeights = (modelJsonPath: string): { nodes: TfjsNode[]; weights: Map<string, Weight> } => {
  const model = v.parse(TfjsModelSchema, JSON.parse(fs.readFileSync(modelJsonPath, 'utf8')));
  const directory = path.dirname(modelJsonPath);
  const weights = new Map<string, Weight>();
  for (const group of model.weightsManifest) {
    const buffer = Buffer.concat(group.paths.map((file) => fs.readFileSync(path.join(directory, file))));
    let offset = 0;
    for (const { name, shape, dtype, quantization } of group.weights) {
      const count = shape.reduce((product, size) => product * size, 1);
      let data: Float32Array | Int32Array;
      if (quantization?.dtype === 'float16') {
        data = new Float32Array(count);
        for (let i = 0; i < count; i += 1) data[i] = HALF_TO_FLOAT[buffer.readUInt16LE(offset + 2 * i)];
        offset += 2 * count;
      } else if (quantization?.dtype === 'uint8' || quantization?.dtype === 'uint16') {
        const bytes = quantization.dtype === 'uint8' ? 1 : 2;
        const { scale = 1, min = 0 } = quantization;
        data = new Float32Array(count);
        for (let i = 0; i < count; i += 1) {
          const stored = bytes === 1 ? buffer[offset + i] : buffer.readUInt16LE(offset + 2 * i);
          data[i] = stored * scale + min;
        }
        offset += bytes * count;
      } else if (!quantization && dtype === 'float32') {
        data = new Float32Array(count);
        for (let i = 0; i < count; i += 1) data[i] = buffer.readFloatLE(offset + 4 * i);
        offset += 4 * count;
      } else if (!quantization && dtype === 'int32') {
        data = new Int32Array(count);
        for (let i = 0; i < count; i += 1) data[i] = buffer.readInt32LE(offset + 4 * i);
        offset += 4 * count;
      } else throw new Error(`${modelJsonPath}: unsupported weight ${name} (${dtype}, ${quantization?.dtype})`);
      weights.set(name, { shape, data });
    }
  }
  return { nodes: model.modelTopology.node, weights };
};

const decodeBase64 = (value: string): string => Buffer.from(value, 'base64').toString();
const attrString = (attr: Attr | undefined): string | undefined => (attr?.s ? decodeBase64(attr.s) : undefined);
const attrInts = (attr: Attr | undefined): number[] => (attr?.list?.i ?? []).map(Number);
const attrStrings = (attr: Attr | undefined): string[] => (attr?.list?.s ?? []).map(decodeBase64);

type Layout = 'NCHW' | 'plain';
type AttributeValue = string | number | number[];

const ELEMENTWISE: Record<string, string> = {
  Add: 'Add',
  AddV2: 'Add',
  BiasAdd: 'Add',
  Sub: 'Sub',
  Mul: 'Mul',
  Minimum: 'Min',
  Maximum: 'Max',
};

/** A tfjs graph model as ONNX (opset 13), keeping only what the requested outputs depend on. */
export const convertTfjsToOnnx = (modelJsonPath: string, spec: ConversionSpec): ConvertedModel => {
  const { nodes, weights } = readWeights(modelJsonPath);
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const initializers: onnx.TensorProto[] = [];
  const onnxNodes: onnx.NodeProto[] = [];
  const layouts = new Map<string, Layout>();
  let counter = 0;
  const fresh = (base: string) => `${base}__${counter++}`;
  const source = (name: string) => name.replace(/^\^/, '').replace(/:0$/, '');

  const initializer = (dims: number[], type: 'float' | 'int64', values: ArrayLike<number>): string => {
    const name = fresh('const');
    const tensor = onnx.TensorProto.create({
      name,
      dims,
      dataType: type === 'int64' ? onnx.TensorProto.DataType.INT64 : onnx.TensorProto.DataType.FLOAT,
    });
    const typed =
      type === 'int64'
        ? new BigInt64Array(Array.from(values, (value) => BigInt(value)))
        : values instanceof Float32Array
          ? values
          : Float32Array.from(values);
    tensor.rawData = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
    initializers.push(tensor);
    return name;
  };
  const scalar = (value: number) => initializer([], 'float', [value]);

  const emit = (
    opType: string,
    inputs: string[],
    outputs: string[],
    attributes: Record<string, AttributeValue> = {},
  ) => {
    const attribute = Object.entries(attributes).map(([name, value]) => {
      const { AttributeType } = onnx.AttributeProto;
      if (typeof value === 'string')
        return onnx.AttributeProto.create({ name, type: AttributeType.STRING, s: Buffer.from(value) });
      if (Array.isArray(value)) return onnx.AttributeProto.create({ name, type: AttributeType.INTS, ints: value });
      return onnx.AttributeProto.create({ name, type: AttributeType.INT, i: value });
    });
    onnxNodes.push(onnx.NodeProto.create({ opType, input: inputs, output: outputs, name: fresh(opType), attribute }));
  };

  const constantOf = (name: string): Weight | undefined => {
    const node = byName.get(source(name));
    if (node?.op !== 'Const') return undefined;
    const weight = weights.get(node.name);
    if (!weight) throw new Error(`${modelJsonPath}: no weight for the constant ${node.name}`);
    return weight;
  };
  const requireConstant = (name: string): Weight => {
    const weight = constantOf(name);
    if (!weight) throw new Error(`${modelJsonPath}: ${name} must be a constant`);
    return weight;
  };
  const layoutOf = (name: string): Layout => {
    const layout = layouts.get(name);
    if (!layout) throw new Error(`${modelJsonPath}: ${name} is used before it is computed`);
    return layout;
  };

  /** A constant operand of an elementwise op, shaped to broadcast against a tensor of `otherLayout`. */
  const elementwiseConstant = (weight: Weight, otherLayout: Layout): string => {
    const { shape, data } = weight;
    if (data.length === 1) return scalar(data[0]);
    if (otherLayout === 'plain') return initializer(shape, 'float', data);
    if (shape.slice(0, -1).every((size) => size === 1))
      return initializer([shape[shape.length - 1], 1, 1], 'float', data);
    throw new Error(`${modelJsonPath}: a constant of shape ${shape} against an NCHW tensor`);
  };

  const convolutionKernel = (weight: Weight, depthwise: boolean) => {
    const [kernelHeight, kernelWidth, inChannels, multiplier] = weight.shape;
    const outChannels = depthwise ? inChannels * multiplier : multiplier;
    const perGroup = depthwise ? 1 : inChannels;
    const out = new Float32Array(outChannels * perGroup * kernelHeight * kernelWidth);
    for (let y = 0; y < kernelHeight; y += 1)
      for (let x = 0; x < kernelWidth; x += 1)
        for (let i = 0; i < inChannels; i += 1)
          for (let o = 0; o < multiplier; o += 1) {
            const value = weight.data[((y * kernelWidth + x) * inChannels + i) * multiplier + o];
            const outChannel = depthwise ? i * multiplier + o : o;
            const inChannel = depthwise ? 0 : i;
            out[((outChannel * perGroup + inChannel) * kernelHeight + y) * kernelWidth + x] = value;
          }
    return { data: out, dims: [outChannels, perGroup, kernelHeight, kernelWidth], group: depthwise ? inChannels : 1 };
  };

  const padding = (node: TfjsNode): Record<string, string> => {
    const mode = attrString(node.attr.padding);
    if (mode === 'SAME') return { auto_pad: 'SAME_UPPER' };
    if (mode === 'VALID') return { auto_pad: 'VALID' };
    throw new Error(`${modelJsonPath}: padding ${mode} at ${node.name}`);
  };

  const tensorName = (name: string): string => (byName.get(name)?.op === 'Placeholder' ? `${name}__nchw` : name);

  /** The activation fused into a Conv or MatMul; a Prelu's slopes are the node's fourth input. */
  const activation = (kind: string, input: string, output: string, node: TfjsNode, inputs: string[]) => {
    if (kind === 'Relu') emit('Relu', [input], [output]);
    else if (kind === 'Relu6') emit('Clip', [input, scalar(0), scalar(6)], [output]);
    else if (kind === 'Prelu')
      emit('PRelu', [input, elementwiseConstant(requireConstant(inputs[3]), layoutOf(input))], [output]);
    else throw new Error(`${modelJsonPath}: fused activation ${kind} at ${node.name}`);
  };

  // Only the nodes the requested outputs depend on.
  for (const output of spec.outputs) if (!byName.has(output)) throw new Error(`${modelJsonPath}: no node ${output}`);
  const needed = new Set<string>();
  const pending = [...spec.outputs];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (needed.has(name)) continue;
    needed.add(name);
    for (const input of byName.get(name)?.input ?? []) pending.push(source(input));
  }

  let inputName: string | undefined;
  for (const node of nodes) {
    if (!needed.has(node.name)) continue;
    const inputs = node.input.filter((input) => !input.startsWith('^')).map(source);
    const out = node.name;
    switch (node.op) {
      case 'Const':
        break;
      case 'Placeholder':
        inputName = node.name;
        emit('Transpose', [node.name], [`${out}__nchw`], { perm: [0, 3, 1, 2] });
        layouts.set(`${out}__nchw`, 'NCHW');
        break;
      case 'Conv2D':
      case '_FusedConv2D':
      case 'DepthwiseConv2dNative':
      case 'FusedDepthwiseConv2dNative': {
        const kernel = convolutionKernel(requireConstant(inputs[1]), node.op.includes('Depthwise'));
        const convInputs = [tensorName(inputs[0]), initializer(kernel.dims, 'float', kernel.data)];
        const [bias, act] = attrStrings(node.attr.fused_ops);
        if (bias === 'BiasAdd')
          convInputs.push(initializer([kernel.dims[0]], 'float', requireConstant(inputs[2]).data));
        else if (bias) throw new Error(`${modelJsonPath}: fused op ${bias} at ${node.name}`);
        const dilations = attrInts(node.attr.dilations);
        const convOut = act ? fresh(out) : out;
        emit('Conv', convInputs, [convOut], {
          strides: attrInts(node.attr.strides).slice(1, 3),
          kernel_shape: kernel.dims.slice(2),
          group: kernel.group,
          ...(dilations.length > 0 ? { dilations: dilations.slice(1, 3) } : {}),
          ...padding(node),
        });
        layouts.set(convOut, 'NCHW');
        if (act) activation(act, convOut, out, node, inputs);
        layouts.set(out, 'NCHW');
        break;
      }
      case 'Add':
      case 'AddV2':
      case 'BiasAdd':
      case 'Sub':
      case 'Mul':
      case 'Minimum':
      case 'Maximum': {
        const [left, right] = [constantOf(inputs[0]), constantOf(inputs[1])];
        if (left && right) throw new Error(`${modelJsonPath}: two constants at ${node.name}`);
        let operands: [string, string];
        let layout: Layout;
        if (right) {
          layout = layoutOf(tensorName(inputs[0]));
          operands = [tensorName(inputs[0]), elementwiseConstant(right, layout)];
        } else if (left) {
          layout = layoutOf(tensorName(inputs[1]));
          operands = [elementwiseConstant(left, layout), tensorName(inputs[1])];
        } else {
          operands = [tensorName(inputs[0]), tensorName(inputs[1])];
          layout = layoutOf(operands[0]);
          if (layoutOf(operands[1]) !== layout) throw new Error(`${modelJsonPath}: layouts differ at ${node.name}`);
        }
        emit(ELEMENTWISE[node.op], operands, [out]);
        layouts.set(out, layout);
        break;
      }
      case 'Relu':
      case 'Relu6':
      case 'Prelu':
      case 'Sigmoid':
      case 'Identity': {
        const input = tensorName(inputs[0]);
        if (node.op === 'Relu6') emit('Clip', [input, scalar(0), scalar(6)], [out]);
        else if (node.op === 'Prelu')
          emit('PRelu', [input, elementwiseConstant(requireConstant(inputs[1]), layoutOf(input))], [out]);
        else emit(node.op, [input], [out]);
        layouts.set(out, layoutOf(input));
        break;
      }
      case 'Softmax': {
        const input = tensorName(inputs[0]);
        if (layoutOf(input) === 'NCHW') throw new Error(`${modelJsonPath}: Softmax of an image at ${node.name}`);
        emit('Softmax', [input], [out], { axis: -1 });
        layouts.set(out, 'plain');
        break;
      }
      case 'MaxPool':
        emit('MaxPool', [tensorName(inputs[0])], [out], {
          kernel_shape: attrInts(node.attr.ksize).slice(1, 3),
          strides: attrInts(node.attr.strides).slice(1, 3),
          ...padding(node),
        });
        layouts.set(out, 'NCHW');
        break;
      case 'Pad': {
        // TensorFlow: [[n0,n1],[h0,h1],[w0,w1],[c0,c1]]; ONNX NCHW: [n0,c0,h0,w0, n1,c1,h1,w1].
        const p = Array.from(requireConstant(inputs[1]).data);
        const pads = [p[0], p[6], p[2], p[4], p[1], p[7], p[3], p[5]];
        emit('Pad', [tensorName(inputs[0]), initializer([8], 'int64', pads)], [out], { mode: 'constant' });
        layouts.set(out, 'NCHW');
        break;
      }
      case 'Mean': {
        const input = tensorName(inputs[0]);
        const axes = Array.from(requireConstant(inputs[1]).data);
        if (layoutOf(input) !== 'NCHW' || axes.join() !== '1,2' || node.attr.keep_dims?.b)
          throw new Error(`${modelJsonPath}: only a spatial Mean without keep_dims is supported (${node.name})`);
        emit('ReduceMean', [input], [out], { axes: [2, 3], keepdims: 0 });
        layouts.set(out, 'plain');
        break;
      }
      case 'Reshape': {
        let input = tensorName(inputs[0]);
        if (layoutOf(input) === 'NCHW') {
          const nhwc = fresh(`${input}_nhwc`);
          emit('Transpose', [input], [nhwc], { perm: [0, 2, 3, 1] });
          input = nhwc;
        }
        const shape = Array.from(requireConstant(inputs[1]).data);
        emit('Reshape', [input, initializer([shape.length], 'int64', shape)], [out]);
        layouts.set(out, 'plain');
        break;
      }
      case 'MatMul':
      case '_FusedMatMul': {
        const input = tensorName(inputs[0]);
        if (layoutOf(input) === 'NCHW') throw new Error(`${modelJsonPath}: MatMul of an image at ${node.name}`);
        if (node.attr.transpose_a?.b) throw new Error(`${modelJsonPath}: transpose_a at ${node.name}`);
        const weight = requireConstant(inputs[1]);
        const gemmInputs = [input, initializer(weight.shape, 'float', weight.data)];
        const [bias, act] = attrStrings(node.attr.fused_ops);
        if (bias === 'BiasAdd') gemmInputs.push(elementwiseConstant(requireConstant(inputs[2]), 'plain'));
        else if (bias) throw new Error(`${modelJsonPath}: fused op ${bias} at ${node.name}`);
        const gemmOut = act ? fresh(out) : out;
        emit('Gemm', gemmInputs, [gemmOut], { transB: node.attr.transpose_b?.b ? 1 : 0 });
        layouts.set(gemmOut, 'plain');
        if (act) activation(act, gemmOut, out, node, inputs);
        layouts.set(out, 'plain');
        break;
      }
      default:
        throw new Error(`${modelJsonPath}: unsupported op ${node.op} (${node.name})`);
    }
  }
  if (!inputName) throw new Error(`${modelJsonPath}: the outputs do not depend on an input`);

  const outputNames = spec.outputs.map((output) => {
    if (layoutOf(output) !== 'NCHW') return output;
    emit('Transpose', [output], [`${output}__nhwc`], { perm: [0, 2, 3, 1] });
    return `${output}__nhwc`;
  });
  const valueInfo = (name: string, shape?: number[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: onnx.TypeProto.create({
        tensorType: onnx.TypeProto.Tensor.create({
          elemType: onnx.TensorProto.DataType.FLOAT,
          shape: shape
            ? onnx.TensorShapeProto.create({
                dim: shape.map((size) =>
                  size < 0
                    ? onnx.TensorShapeProto.Dimension.create({ dimParam: 'batch' })
                    : onnx.TensorShapeProto.Dimension.create({ dimValue: size }),
                ),
              })
            : undefined,
        }),
      }),
    });
  const graph = onnx.GraphProto.create({
    name: path.basename(modelJsonPath, '.json'),
    node: onnxNodes,
    initializer: initializers,
    input: [valueInfo(inputName, spec.inputShape)],
    output: outputNames.map((name) => valueInfo(name)),
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'identity-image-service tfjs-to-onnx',
    opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: 13 })],
    graph,
  });
  return { bytes: onnx.ModelProto.encode(model).finish(), inputName, outputNames };
};
