#!/usr/bin/python3
"""Rewrite a VNNLIB 1 spec as a VNNLIB 2.0 query for a given ONNX model.

usage: vnnlib2.py MODEL.onnx SPEC.vnnlib OUT.vnnlib [--type float32|real] [--onnx-names]
       vnnlib2.py --benchmark SRC_DIR DST_DIR [--type ...] [--onnx-names]

The declare-const lines become one declare-network whose input and output have the ONNX tensors'
shapes (a symbolic dimension counts as 1), and X_i / Y_j become tensor elements X[...] / Y[...]
at row-major offset i / j; the asserts are kept as written. With --benchmark, every row of
SRC_DIR/instances.csv is converted into DST_DIR (models linked, not copied) and DST_DIR gets an
instances.csv and consensus.csv of its own, so that scripts/bench.py measures verify on the same
instances in the VNNLIB 2.0 dialect.
Run with /usr/bin/python3 (numpy and protobuf, as scripts/check_cex.py).
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_cex  # noqa: E402  (its ONNX loader and runner)
import make_models  # noqa: E402  (the rewrite itself, shared with the generated specs)

def tensor_shapes(model_path):
    """(input shape, output shape) of the model, each a list of ints."""
    pb = check_cex.load_onnx_pb2()
    model = pb.ModelProto()
    model.ParseFromString(check_cex.read_maybe_gz(model_path))
    net = check_cex.Network(model)
    in_shape = [int(d) for d in net.input_shapes[0]]
    n_out = int(net.run(check_cex.np.zeros(int(check_cex.np.prod(in_shape))),
                        check_cex.np.float32).size)
    out_shape = [n_out]
    dims = model.graph.output[0].type.tensor_type.shape.dim
    declared = [d.dim_value if d.HasField("dim_value") else 1 for d in dims]
    if declared and int(check_cex.np.prod(declared)) == n_out:
        out_shape = declared
    return in_shape, out_shape, net.inputs[0].name, model.graph.output[0].name


def convert_text(text, shapes, typ, onnx_names):
    in_shape, out_shape, in_name, out_name = shapes
    return make_models.spec_v2_text(text, in_shape, out_shape, typ,
                                    (in_name, out_name) if onnx_names else None)


def convert_benchmark(src, dst, typ, onnx_names):
    os.makedirs(os.path.join(dst, "vnnlib"), exist_ok=True)
    shapes = {}
    written = {}
    rows = []
    with open(os.path.join(src, "instances.csv")) as f:
        for row in csv.reader(f):
            if not row:
                continue
            onnx, spec, timeout = row[0].strip(), row[1].strip(), row[2].strip()
            model = os.path.join(src, onnx)
            if model not in shapes:
                shapes[model] = tensor_shapes(model)
                os.makedirs(os.path.dirname(os.path.join(dst, onnx)), exist_ok=True)
                link = os.path.join(dst, onnx)
                if not os.path.exists(link):
                    os.symlink(os.path.abspath(model), link)
            text = check_cex.read_maybe_gz(os.path.join(src, spec)).decode("utf-8")
            name = spec[:-3] if spec.endswith(".gz") else spec
            out = os.path.join(dst, name)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            new = convert_text(text, shapes[model], typ, onnx_names)
            if written.setdefault(out, new) != new:
                raise check_cex.CheckError("%s: models of different shapes share it" % spec)
            with open(out, "w") as g:
                g.write(new)
            rows.append((onnx, name, timeout))
    with open(os.path.join(dst, "instances.csv"), "w", newline="") as f:
        csv.writer(f).writerows(rows)
    for extra in ("consensus.csv", "results.csv"):
        if os.path.exists(os.path.join(src, extra)):
            with open(os.path.join(src, extra)) as f:
                data = f.read().replace(".vnnlib.gz", ".vnnlib")
            with open(os.path.join(dst, extra), "w") as g:
                g.write(data)
    print("%d instances written to %s" % (len(rows), dst))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--benchmark", nargs=2, metavar=("SRC", "DST"))
    ap.add_argument("--type", default="float32", choices=["float32", "real", "Real", "float64"])
    ap.add_argument("--onnx-names", action="store_true", help="name the ONNX input and output")
    a = ap.parse_args()
    try:
        if a.benchmark:
            convert_benchmark(a.benchmark[0], a.benchmark[1], a.type, a.onnx_names)
            return 0
        if len(a.paths) != 3:
            ap.error("expected MODEL.onnx SPEC.vnnlib OUT.vnnlib (or --benchmark SRC DST)")
        text = check_cex.read_maybe_gz(a.paths[1]).decode("utf-8")
        with open(a.paths[2], "w") as g:
            g.write(convert_text(text, tensor_shapes(a.paths[0]), a.type, a.onnx_names))
    except check_cex.CheckError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
