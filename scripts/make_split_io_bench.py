#!/usr/bin/python3
"""A benchmark rewritten with two graph inputs and two graph outputs per model.

usage: make_split_io_bench.py SRC_DIR DST_DIR

Each model of SRC_DIR/instances.csv gets a wrapper: its input's n elements become two graph
inputs, splitio_a [1, n//2] and splitio_b [1, n - n//2], joined by Concat and reshaped to the
input's shape; its output's m elements are flattened and Split into two graph outputs,
splitio_p [1, m//2] and splitio_q [1, m - m//2] (one output when m is 1). Each spec becomes a
VNNLIB 2.0 query that names those tensors by their ONNX names and declares them in the other
order (b before a, q before p), so that verify matches them by name and lays the query out as the
model has it; X_i is a[0,i] for i < n//2, else b[0,i-n//2], and Y_j likewise. The wrapper only
moves values (Concat, Reshape, Split), so every instance keeps its verdict: DST_DIR gets
instances.csv and consensus.csv with the new paths, for scripts/bench.py, and scripts/check_cex.py
checks each counterexample against the wrapped model.
Run with /usr/bin/python3 (numpy and protobuf, as scripts/check_cex.py).
"""

import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_cex  # noqa: E402  (its ONNX protobuf module and runner)

np = check_cex.np


def int_tensor(pb, name, values):
    t = pb.TensorProto()
    t.name = name
    t.data_type = pb.TensorProto.INT64
    t.dims.append(len(values))
    t.int64_data.extend(values)
    return t


def node(pb, op, ins, outs, name, **ints):
    n = pb.NodeProto()
    n.op_type = op
    n.name = name
    n.input.extend(ins)
    n.output.extend(outs)
    for k, v in ints.items():
        a = n.attribute.add()
        a.name = k
        a.type = pb.AttributeProto.INT
        a.i = v
    return n


def value_info(pb, name, dims):
    vi = pb.ValueInfoProto()
    vi.name = name
    tt = vi.type.tensor_type
    tt.elem_type = pb.TensorProto.FLOAT
    for d in dims:
        tt.shape.dim.add().dim_value = d
    return vi


def wrap(pb, data):
    """The wrapped model's bytes, and (n, k, m, j): input and output sizes and their splits."""
    model = pb.ModelProto()
    model.ParseFromString(data)
    net = check_cex.Network(model)
    if len(net.inputs) != 1 or len(model.graph.output) != 1:
        raise check_cex.CheckError("the model must have one input and one output")
    g = model.graph
    in_vi = net.inputs[0]
    in_shape = list(net.input_shapes[0])
    n = net.input_sizes[0]
    m = int(net.run(np.zeros(n), np.float32).size)
    k, j = n // 2, m // 2
    if k < 1:
        raise check_cex.CheckError("the model has one input element: nothing to split")
    out_name = g.output[0].name
    front = [node(pb, "Concat", ["splitio_a", "splitio_b"], ["splitio_cat"], "splitio_join",
                  axis=1),
             node(pb, "Reshape", ["splitio_cat", "splitio_in_shape"], [in_vi.name],
                  "splitio_reshape")]
    back = [node(pb, "Reshape", [out_name, "splitio_out_shape"], ["splitio_flat"],
                 "splitio_flatten")]
    outs = [("splitio_p", j), ("splitio_q", m - j)] if j else [("splitio_flat", m)]
    if j:
        back.append(node(pb, "Split", ["splitio_flat", "splitio_sizes"],
                         ["splitio_p", "splitio_q"], "splitio_split", axis=1))
    nodes = front + list(g.node) + back
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend([int_tensor(pb, "splitio_in_shape", in_shape),
                          int_tensor(pb, "splitio_out_shape", [1, m]),
                          int_tensor(pb, "splitio_sizes", [j, m - j])])
    kept = [vi for vi in g.input if vi.name != in_vi.name]
    del g.input[:]
    g.input.extend([value_info(pb, "splitio_a", [1, k]), value_info(pb, "splitio_b", [1, n - k])]
                   + kept)
    del g.output[:]
    g.output.extend([value_info(pb, name, [1, size]) for name, size in outs])
    return model.SerializeToString(), (n, k, m, j)


def convert_spec(text, sizes):
    """The VNNLIB 1 text as a 2.0 query over the wrapped model, tensors named and declared in the
    other order than the model's."""
    n, k, m, j = sizes
    body = re.sub(r"\(\s*declare-(?:const|fun)\s+[XY]_\d+\s+(?:\(\s*\)\s+)?Real\s*\)\n?", "", text)

    def element(match):
        i = int(match.group(2))
        if match.group(1) == "X":
            return "A[0,%d]" % i if i < k else "B[0,%d]" % (i - k)
        if not j:
            return "P[0,%d]" % i
        return "P[0,%d]" % i if i < j else "Q[0,%d]" % (i - j)
    body = re.sub(r"\b([XY])_(\d+)\b", element, body)
    outs = ('(declare-output Q float32 [1,%d] "splitio_q") (declare-output P float32 [1,%d] '
            '"splitio_p")' % (m - j, j)) if j else \
        '(declare-output P float32 [1,%d] "splitio_flat")' % m
    head = ('(vnnlib-version <2.0>)\n(declare-network net (declare-input B float32 [1,%d] '
            '"splitio_b") (declare-input A float32 [1,%d] "splitio_a") %s)\n' % (n - k, k, outs))
    return head + body


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    src, dst = argv[1], argv[2]
    pb = check_cex.load_onnx_pb2()
    sizes, rows = {}, []
    with open(os.path.join(src, "instances.csv")) as f:
        for row in csv.reader(f):
            if not row:
                continue
            onnx, spec, timeout = row[0].strip(), row[1].strip(), row[2].strip()
            model = onnx[:-3] if onnx.endswith(".gz") else onnx
            if model not in sizes:
                data, sizes[model] = wrap(pb, check_cex.read_maybe_gz(os.path.join(src, onnx)))
                os.makedirs(os.path.dirname(os.path.join(dst, model)) or dst, exist_ok=True)
                with open(os.path.join(dst, model), "wb") as g:
                    g.write(data)
            name = spec[:-3] if spec.endswith(".gz") else spec
            out = os.path.join(dst, re.sub(r"\.vnnlib$", "", name) + "_" +
                               os.path.basename(model)[:-5] + ".vnnlib")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            text = check_cex.read_maybe_gz(os.path.join(src, spec)).decode("utf-8")
            with open(out, "w") as g:
                g.write(convert_spec(text, sizes[model]))
            rows.append((model, os.path.relpath(out, dst), timeout, onnx, spec))
    with open(os.path.join(dst, "instances.csv"), "w", newline="") as f:
        csv.writer(f).writerows(r[:3] for r in rows)
    # consensus.csv: the source's rows, keyed by (model, spec), under the new paths
    new_key = {(r[3], r[1 + 3]): (r[0], r[1]) for r in rows}
    with open(os.path.join(src, "consensus.csv")) as f:
        rd = csv.DictReader(f)
        out_rows = []
        for r in rd:
            key = (r["onnx"], r["vnnlib"])
            if key in new_key:
                r["onnx"], r["vnnlib"] = new_key[key]
                out_rows.append(r)
    with open(os.path.join(dst, "consensus.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=rd.fieldnames)
        w.writeheader()
        w.writerows(out_rows)
    print("%d instances (%d models) written to %s" % (len(rows), len(sizes), dst))


if __name__ == "__main__":
    main(sys.argv)
