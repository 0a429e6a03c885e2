// A small helper that accumulates ONNX nodes and initializers with readable, unique value names,
// so that the nano graph in export-onnx.ts reads like the forward pass it encodes.

import { DataType, type AttributeValue, type NodeDef, type TensorInit } from "./protobuf";

export class GraphBuilder {
  readonly nodes: NodeDef[] = [];
  readonly initializers: TensorInit[] = [];
  private readonly used = new Set<string>();
  /** Graph inputs and outputs: an output name goes to the one node that asks for it by name. */
  private readonly reserved = new Set<string>();

  /**
   * Reserves a graph input or output name so that no intermediate value takes it; an output name
   * (`produced`) is then given to the one node that asks for it.
   */
  reserve(name: string, produced: boolean): void {
    if (produced) this.reserved.add(name);
    this.used.add(name);
  }

  /** A fresh value name: `hint`, or `hint_2`, `hint_3`… when taken; a reserved output name as is. */
  private fresh(hint: string): string {
    if (this.reserved.delete(hint)) return hint;
    let name = hint;
    for (let k = 2; this.used.has(name); k++) name = `${hint}_${k}`;
    this.used.add(name);
    return name;
  }

  /** One node with one output, named after `out` (or the op). */
  op(op: string, inputs: readonly string[], out?: string, attributes?: Record<string, AttributeValue>): string {
    const name = this.fresh(out ?? op.toLowerCase());
    this.nodes.push({ op, inputs, outputs: [name], name: `${op}:${name}`, attributes });
    return name;
  }

  /** One node with several outputs (e.g. Split); the names are taken as given. */
  opMulti(op: string, inputs: readonly string[], outs: readonly string[], attributes?: Record<string, AttributeValue>) {
    const names = outs.map((o) => this.fresh(o));
    this.nodes.push({ op, inputs, outputs: names, name: `${op}:${names[0]}`, attributes });
    return names;
  }

  /** An initializer (a weight or a constant). */
  init(name: string, dataType: TensorInit["dataType"], dims: readonly number[], data: TensorInit["data"]): string {
    const n = this.fresh(name);
    this.initializers.push({ name: n, dataType, dims, data });
    return n;
  }

  /** A float32 scalar constant (rank 0). */
  scalar(name: string, value: number): string {
    return this.init(name, DataType.FLOAT, [], Float32Array.of(value));
  }

  /** An int64 vector constant (shapes, axes, indices). */
  ints(name: string, values: readonly number[]): string {
    return this.init(name, DataType.INT64, [values.length], BigInt64Array.from(values.map(BigInt)));
  }

  /** An int64 scalar constant. */
  int(name: string, value: number): string {
    return this.init(name, DataType.INT64, [], BigInt64Array.of(BigInt(value)));
  }
}
