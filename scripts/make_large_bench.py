#!/usr/bin/python3
"""Write a benchmark folder of networks too large for their time or this machine's memory (for
scripts/bench.py): what verify must do with them is end within the deadline, or refuse at once.

usage: make_large_bench.py OUT_DIR [--stem SIDE]

(--stem SIDE: only stem() on a 3 x SIDE x SIDE input, named stemSIDE, and its two specs: the
regression tier's check that 999 rows over a large input stay within the memory ceiling.)

VNN-COMP's vggnet16_2023 is a VGG-16 on ImageNet. verify lowers every Conv to a sparse matrix
(a 3x3 convolution of 64 channels on 64 x 64 images: 1.5e8 nonzeros), so a VGG-16 is far past what
its bound passes can do in a competition's time, and at full width past this machine's memory.
Three stand-ins (random weights, fixed seed, float32, 1000 classes):

* vgg16_64h: VGG-16's layers (13 Conv 3x3 + Relu, 5 MaxPool 2x2, Gemm 4096, 4096, 1000) with half
  the channels and units, on 3 x 64 x 64 inputs: about 4.8 GB lowered. It loads; its root's CROWN
  takes minutes: the deadline must hold all the same.
* vgg16_64: the same at full width: about 19 GB lowered, past half of a 24 GB machine's memory:
  refused at once, naming its largest Conv (before: 95 s of loading and 21 GB, then a timeout).
* stem224: ImageNet's input size (3 x 224 x 224) read by two strided convolutions and a Gemm to
  1000 classes, small to lower: its spec's 999 cases each bound the 150,528 inputs, which the spec
  parser refused as too large before it read the shared bounds once.

Specs: 50 pixels of a random image in [0, 1] perturbed by 2/255 (the others fixed, at float32
values written exactly), unsafe: another class scores at least the image's class; and the image
alone (a point). Unscored (consensus `unknown`). Timeouts 30 s.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_cex  # noqa: E402  (onnx_pb2 from onnx.proto, the float64 evaluator)
import make_pair_bench as mpb  # noqa: E402  (TensorProto and ValueInfoProto builders)
import make_residual_bench as mrb  # noqa: E402  (exact decimals, spec text, the lists)

import numpy as np  # noqa: E402

VGG16 = [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"]


def stem(path, hw, seed):
    """An ImageNet-sized input (3 x hw x hw) read by two strided convolutions (8 x 8 by 8, to 16
    channels; 3 x 3 by 2, to 32) and a Gemm to 1000 classes: small to lower, but its 1000-class
    spec bounds 150,528 inputs in each of 999 cases."""
    return vgg(path, 1.0, hw, seed, layers="stem")


def vgg(path, width, hw, seed, layers="vgg16"):
    """A VGG-16 of the given width (1: the original channels and units) on 3 x hw x hw inputs,
    built as a ModelProto with raw float32 weights (make_residual_bench's text form would spell
    out tens of millions of them). layers="stem": stem()'s network instead."""
    pb = check_cex.load_onnx_pb2()
    rng = np.random.default_rng(seed)
    m = pb.ModelProto()
    m.ir_version = 8
    op = m.opset_import.add()
    op.domain = ""
    op.version = 13
    g = m.graph
    g.name = "vgg16"

    def init(name, arr):
        g.initializer.append(mpb.tensor(pb, name, arr))

    def node(op_type, ins, out, **attrs):
        n = g.node.add()
        n.op_type = op_type
        n.input.extend(ins)
        n.output.append(out)
        n.name = out
        for k, v in attrs.items():
            a = n.attribute.add()
            a.name = k
            if isinstance(v, list):
                a.type = 7  # INTS
                a.ints.extend(v)
            else:
                a.type = 2  # INT
                a.i = v
        return out

    x, cin = "X", 3
    if layers == "stem":
        side = hw
        for i, (c, k, st, pad) in enumerate(((16, 8, 8, 0), (32, 3, 2, 1))):
            init("w%d" % i, rng.normal(0, (2.0 / (cin * k * k)) ** 0.5, (c, cin, k, k)))
            init("b%d" % i, rng.normal(0, 0.01, c))
            x = node("Conv", [x, "w%d" % i, "b%d" % i], "conv%d" % i, kernel_shape=[k, k],
                     strides=[st, st], pads=[pad] * 4)
            x = node("Relu", [x], "relu%d" % i)
            cin, side = c, (side + 2 * pad - k) // st + 1
        x = node("Flatten", [x], "flat", axis=1)
        init("fw", rng.normal(0, (2.0 / (cin * side * side)) ** 0.5, (1000, cin * side * side)))
        init("fb", rng.normal(0, 0.01, 1000))
        x = node("Gemm", [x, "fw", "fb"], "Y", transB=1)
        g.input.append(mpb.value_info(pb, "X", [1, 3, hw, hw]))
        g.output.append(mpb.value_info(pb, "Y", [1, 1000]))
        with open(path, "wb") as f:
            f.write(m.SerializeToString())
        return check_cex.Network(m)
    for i, c in enumerate(VGG16):
        if c == "M":
            x = node("MaxPool", [x], "pool%d" % i, kernel_shape=[2, 2], strides=[2, 2])
            continue
        c = max(1, int(c * width))
        init("w%d" % i, rng.normal(0, (2.0 / (cin * 9)) ** 0.5, (c, cin, 3, 3)))
        init("b%d" % i, rng.normal(0, 0.01, c))
        x = node("Conv", [x, "w%d" % i, "b%d" % i], "conv%d" % i, kernel_shape=[3, 3],
                 pads=[1, 1, 1, 1])
        x = node("Relu", [x], "relu%d" % i)
        cin = c
    x = node("Flatten", [x], "flat", axis=1)
    dims = [cin * (hw // 32) ** 2, int(4096 * width), int(4096 * width), 1000]
    for k in range(3):
        init("fw%d" % k, rng.normal(0, (2.0 / dims[k]) ** 0.5, (dims[k + 1], dims[k])))
        init("fb%d" % k, rng.normal(0, 0.01, dims[k + 1]))
        x = node("Gemm", [x, "fw%d" % k, "fb%d" % k], "fc%d" % k if k < 2 else "Y", transB=1)
        if k < 2:
            x = node("Relu", [x], "frelu%d" % k)
    g.input.append(mpb.value_info(pb, "X", [1, 3, hw, hw]))
    g.output.append(mpb.value_info(pb, "Y", [1, 1000]))
    with open(path, "wb") as f:
        f.write(m.SerializeToString())
    return check_cex.Network(m)


def main(argv):
    nets = (("vgg16_64h", 0.5, 64), ("vgg16_64", 1.0, 64), ("stem224", 0, 224))
    if len(argv) == 4 and argv[2] == "--stem" and argv[3].isdigit() and int(argv[3]) >= 16:
        nets = (("stem" + argv[3], 0, int(argv[3])),)
        argv = argv[:2]
    out = mrb.out_dir(argv, __doc__)
    rows, consensus = [], []
    for name, width, hw in nets:
        onnx = "onnx/%s.onnx" % name
        net = (stem(os.path.join(out, onnx), hw, 5) if name.startswith("stem") else
               vgg(os.path.join(out, onnx), width, hw, 5))
        rng = np.random.default_rng(1)
        x = rng.uniform(0, 1, 3 * hw * hw).astype(np.float32).astype(np.float64)
        y = net.run(x, np.float64)
        top = int(np.argmax(y))
        pert = set(rng.choice(x.size, 50, replace=False).tolist())
        eps = 2.0 / 255
        lo = [mrb.exact(float(np.float32(max(0.0, v - eps))) if i in pert else float(v))
              for i, v in enumerate(x)]
        hi = [mrb.exact(float(np.float32(min(1.0, v + eps))) if i in pert else float(v))
              for i, v in enumerate(x)]
        alts = ["  (and (>= Y_%d Y_%d))" % (j, top) for j in range(len(y)) if j != top]
        for spec, what, a, b in (("pix50", "50 pixels +-2/255", lo, hi),
                                 ("point", "one image", [mrb.exact(float(v)) for v in x],
                                  [mrb.exact(float(v)) for v in x])):
            path = "vnnlib/%s_%s.vnnlib" % (name, spec)
            text = mrb.spec_text("%s, %s, unsafe: a class other than %d scores at least as high"
                                 % (name, what, top), a, b, len(y), ["(assert (or"] + alts + ["))"])
            mrb.add_instance(out, rows, consensus, onnx, path, text, 30, "unknown")
    mrb.write_lists(out, rows, consensus)


if __name__ == "__main__":
    main(sys.argv)
