#!/usr/bin/python3
"""Independent counterexample checker for verify (VNN-COMP result files).

usage: check_cex.py MODEL.onnx SPEC.vnnlib RESULT_FILE
       check_cex.py NAME=MODEL.onnx [NAME=MODEL.onnx ...] SPEC.vnnlib RESULT_FILE
       check_cex.py "[('f', 'a.onnx'), ('g', 'b.onnx')]" SPEC.vnnlib RESULT_FILE
       check_cex.py MODEL.onnx [MODEL.onnx ...] SPEC.vnnlib RESULT_FILE

Shares no code with the C project on purpose: it parses the ONNX file with Python protobuf (the
onnx_pb2 module is generated at run time with protoc from Debian's /usr/include/onnx/onnx.proto),
runs the network with numpy, parses the VNNLIB itself, and checks the counterexample in the result
file the way the VNN-COMP organisers do, plus an exact check:

  1. the result file's first line is "sat" and it lists every X_i (and Y_j) once (for a VNNLIB
     2.0 query: its assignment, each tensor's "NAME TYPE [shape]" line and then its values, for
     each network in declaration order its input and then its output);
  2. X (as written, parsed to float64) lies inside the input region exactly (no tolerance);
  3. Y in the file matches the network's float32 output on float32(X) within rtol 1e-3 / atol 1e-4;
  4. the spec holds on (X, Y_net): exactly on the float32 pass and on a float64 pass -> "valid";
     only within the VNN-COMP tolerance 1e-4 -> "valid-with-tolerance"; otherwise "invalid: why".

A VNNLIB 2.0 query may declare several networks (VNN-COMP 2026's monotonic and isomorphic ACAS
Xu), each with one declare-input and one declare-output, and optionally (equal-to N) (the same
model as network N) or (isomorphic-to N) (its own model); X_f[...] and Y_g[...] name their
elements. Each network runs on its own input's values (float32 and float64 passes), its Y in the
file is checked against its own execution, and the spec is evaluated on every network's inputs
and outputs together. The models, one per network: NAME=PATH arguments; or one argument holding
VNN-COMP's instances.csv list literal [('f', 'a.onnx'), ('g', 'b.onnx')] (read with
ast.literal_eval: a list of pairs of strings); or bare paths, bound in declaration order to every
network, or to every network not declared equal-to another. A network declared equal-to another
and given no model uses that one's (given one, it must have the same content). A model for an
undeclared network, a network without a model, or a wrong number of paths is an error (exit 2).
An argument naming an existing file is always a path.

Exit status: 0 valid, 1 valid-with-tolerance or invalid, 2 usage error or unreadable input.
Strict comparisons (<, >) and disequalities (!=, distinct) hold strictly: exactly on the exact
check, and beyond the tolerance on the tolerant one (VNN-COMP 2026's checker does the same).
Run with /usr/bin/python3 (Debian's python3-numpy and python3-protobuf; see scripts/setup.sh).
"""

import argparse
import ast
import fractions
import functools
import itertools
import gzip
import importlib
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # pragma: no cover
    sys.stderr.write("check_cex.py: needs numpy (run with /usr/bin/python3 after scripts/setup.sh)\n")
    sys.exit(2)

ONNX_PROTO = os.environ.get("ONNX_PROTO", "/usr/include/onnx/onnx.proto")
SPEC_ATOL = 1e-4      # VNN-COMP: counterexample satisfies the spec within this
EXEC_RTOL = 1e-3      # VNN-COMP: Y in the file matches the execution within this (relative)
EXEC_ATOL = 1e-4


class CheckError(Exception):
    """Unreadable or unsupported input (exit 2)."""


# ----------------------------------------------------------------------------------------------
# ONNX loading

def load_onnx_pb2():
    """Generate onnx_pb2 from onnx.proto with protoc into a temporary directory and import it."""
    if not os.path.isfile(ONNX_PROTO):
        raise CheckError("%s not found (install libonnx-dev)" % ONNX_PROTO)
    if shutil.which("protoc") is None:
        raise CheckError("protoc not found (install protobuf-compiler)")
    tmp = tempfile.mkdtemp(prefix="check_cex_pb.")
    try:
        shutil.copy(ONNX_PROTO, os.path.join(tmp, "onnx.proto"))
        r = subprocess.run(["protoc", "--python_out=" + tmp, "-I" + tmp, "onnx.proto"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if r.returncode != 0:
            raise CheckError("protoc failed: " + r.stderr.strip())
        sys.path.insert(0, tmp)
        try:
            mod = importlib.import_module("onnx_pb2")
        finally:
            sys.path.pop(0)
        return mod
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def read_maybe_gz(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".gz") or data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data


# TensorProto.DataType -> numpy dtype
DTYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32,
          7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64}
FLOAT_TYPES = (1, 10, 11)


def tensor_to_array(t, ftype):
    if t.data_type not in DTYPES:
        raise CheckError("tensor %r: unsupported data type %d" % (t.name, t.data_type))
    if t.data_location == 1:
        raise CheckError("tensor %r: external data is not supported" % t.name)
    dt = np.dtype(DTYPES[t.data_type])
    shape = tuple(int(d) for d in t.dims)
    n = int(np.prod(shape)) if shape else 1
    if t.raw_data:
        a = np.frombuffer(t.raw_data, dtype=dt.newbyteorder("<")).astype(dt)
    elif t.data_type == 1:
        a = np.array(t.float_data, dtype=np.float32)
    elif t.data_type == 11:
        a = np.array(t.double_data, dtype=np.float64)
    elif t.data_type in (7,):
        a = np.array(t.int64_data, dtype=np.int64)
    elif t.data_type in (12, 13):
        a = np.array(t.uint64_data, dtype=dt)
    elif t.data_type == 10:
        a = np.array(t.int32_data, dtype=np.uint16).view(np.float16)
    else:
        a = np.array(t.int32_data, dtype=dt)
    if a.size != n:
        raise CheckError("tensor %r: %d values for shape %s" % (t.name, a.size, shape))
    a = a.reshape(shape)
    if t.data_type in FLOAT_TYPES:
        a = a.astype(ftype)
    return a


def attrs_of(node, ftype):
    out = {}
    for a in node.attribute:
        if a.type == 1:
            out[a.name] = a.f
        elif a.type == 2:
            out[a.name] = a.i
        elif a.type == 3:
            out[a.name] = a.s.decode()
        elif a.type == 4:
            out[a.name] = tensor_to_array(a.t, ftype)
        elif a.type == 6:
            out[a.name] = list(a.floats)
        elif a.type == 7:
            out[a.name] = list(a.ints)
        elif a.type == 8:
            out[a.name] = [s.decode() for s in a.strings]
        else:
            out[a.name] = None
    return out


# ----------------------------------------------------------------------------------------------
# Operators (numpy; every float tensor is in ftype: float32 for the organisers' pass)

def _pool_geometry(x, a, kernel):
    nd = len(kernel)
    spatial = x.shape[2:]
    strides = a.get("strides") or [1] * nd
    dil = a.get("dilations") or [1] * nd
    pads = list(a.get("pads") or [0] * (2 * nd))
    auto = a.get("auto_pad", "NOTSET")
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        pads = [0] * (2 * nd)
        for i in range(nd):
            out = -(-spatial[i] // strides[i])
            total = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1 - spatial[i])
            lo = total // 2 if auto == "SAME_UPPER" else total - total // 2
            pads[i], pads[i + nd] = lo, total - lo
    elif auto == "VALID":
        pads = [0] * (2 * nd)
    outs = []
    extra = []
    for i in range(nd):
        eff = (kernel[i] - 1) * dil[i] + 1
        span = spatial[i] + pads[i] + pads[i + nd] - eff
        if a.get("ceil_mode", 0):
            o = -(-span // strides[i]) + 1
            # the last window must start inside the input or the left padding
            if (o - 1) * strides[i] >= spatial[i] + pads[i]:
                o -= 1
        else:
            o = span // strides[i] + 1
        outs.append(o)
        extra.append(max(0, (o - 1) * strides[i] + eff - (spatial[i] + pads[i] + pads[i + nd])))
    return strides, dil, pads, outs, extra


def _windows(xp, kernel, strides, dil, outs):
    """Yield (kernel index tuple, strided view of shape (N, C, *outs)) for every kernel offset."""
    nd = len(kernel)
    for kidx in np.ndindex(*kernel):
        sl = [slice(None), slice(None)]
        for i in range(nd):
            start = kidx[i] * dil[i]
            sl.append(slice(start, start + (outs[i] - 1) * strides[i] + 1, strides[i]))
        yield kidx, xp[tuple(sl)]


def _pad_spatial(x, pads, extra, value):
    nd = x.ndim - 2
    width = [(0, 0), (0, 0)] + [(pads[i], pads[i + nd] + extra[i]) for i in range(nd)]
    return np.pad(x, width, mode="constant", constant_values=value)


def op_conv(ins, a, ftype):
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 and ins[2] is not None else None
    kernel = list(a.get("kernel_shape") or w.shape[2:])
    group = a.get("group", 1)
    strides, dil, pads, outs, _ = _pool_geometry(x, a, kernel)
    xp = _pad_spatial(x, pads, [0] * len(kernel), 0)
    n, c = x.shape[0], x.shape[1]
    m = w.shape[0]
    cg, mg = c // group, m // group
    cols = np.empty((n, c) + tuple(kernel) + tuple(outs), dtype=ftype)
    for kidx, view in _windows(xp, kernel, strides, dil, outs):
        cols[(slice(None), slice(None)) + kidx] = view
    kk = int(np.prod(kernel))
    po = int(np.prod(outs))
    cols = cols.reshape(n, group, cg * kk, po)
    wg = w.reshape(group, mg, cg * kk)
    y = np.empty((n, group, mg, po), dtype=ftype)
    for g in range(group):
        y[:, g] = np.matmul(wg[g], cols[:, g])
    y = y.reshape((n, m) + tuple(outs))
    if b is not None:
        y = y + b.reshape((1, m) + (1,) * len(kernel))
    return y.astype(ftype)


def op_conv_transpose(ins, a, ftype):
    """The ONNX definition: every input element scatters its kernel, y[oc, iy*s - p + k*d] +=
    x[ic, iy] w[ic, j, k] (explicit pads or VALID only, as verify), then the bias."""
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 and ins[2] is not None else None
    nd = x.ndim - 2
    group = a.get("group", 1)
    strides = list(a.get("strides") or [1] * nd)
    dil = list(a.get("dilations") or [1] * nd)
    opad = list(a.get("output_padding") or [0] * nd)
    pads = list(a.get("pads") or [0] * (2 * nd))
    if a.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID") or \
            a.get("output_shape"):
        raise NotImplementedError("ConvTranspose with auto_pad SAME_* or output_shape")
    n, c = x.shape[0], x.shape[1]
    cg, mg = c // group, w.shape[1]
    kernel = w.shape[2:]
    full = [strides[i] * (x.shape[2 + i] - 1) + (kernel[i] - 1) * dil[i] + 1 + opad[i]
            for i in range(nd)]
    y = np.zeros((n, group * mg) + tuple(full), dtype=ftype)
    for kidx in itertools.product(*[range(k) for k in kernel]):
        sl = tuple(slice(kidx[i] * dil[i], kidx[i] * dil[i] + strides[i] * (x.shape[2 + i] - 1) + 1,
                         strides[i]) for i in range(nd))
        for g in range(group):
            wk = w[(slice(g * cg, (g + 1) * cg), slice(None)) + tuple(kidx)]  # (cg, mg)
            contrib = np.einsum("nc...,cm->nm...", x[:, g * cg:(g + 1) * cg], wk).astype(ftype)
            y[(slice(None), slice(g * mg, (g + 1) * mg)) + sl] += contrib
    crop = tuple(slice(pads[i], full[i] - pads[i + nd]) for i in range(nd))
    y = y[(slice(None), slice(None)) + crop]
    if b is not None:
        y = y + b.reshape((1, group * mg) + (1,) * nd)
    return y.astype(ftype)


def op_maxpool(ins, a, ftype):
    x = ins[0]
    kernel = list(a["kernel_shape"])
    strides, dil, pads, outs, extra = _pool_geometry(x, a, kernel)
    xp = _pad_spatial(x, pads, extra, -np.inf)
    y = None
    for _, view in _windows(xp, kernel, strides, dil, outs):
        y = view.copy() if y is None else np.maximum(y, view)
    return y.astype(ftype)


def op_avgpool(ins, a, ftype):
    x = ins[0]
    kernel = list(a["kernel_shape"])
    strides, dil, pads, outs, extra = _pool_geometry(x, a, kernel)
    xp = _pad_spatial(x, pads, extra, 0)
    nd = len(kernel)
    ones = np.ones((1, 1) + x.shape[2:], dtype=ftype)
    if a.get("count_include_pad", 0):
        # explicit pads count, the ceil_mode overhang does not
        mask = np.pad(ones, [(0, 0), (0, 0)] + [(pads[i], pads[i + nd]) for i in range(nd)],
                      constant_values=1)
        mask = np.pad(mask, [(0, 0), (0, 0)] + [(0, extra[i]) for i in range(nd)],
                      constant_values=0)
    else:
        mask = _pad_spatial(ones, pads, extra, 0)
    s = None
    cnt = None
    for (_, view), (_, mview) in zip(_windows(xp, kernel, strides, dil, outs),
                                     _windows(mask, kernel, strides, dil, outs)):
        s = view.copy() if s is None else s + view
        cnt = mview.copy() if cnt is None else cnt + mview
    return (s / cnt).astype(ftype)


def op_gemm(ins, a, ftype):
    A, B = ins[0], ins[1]
    if a.get("transA", 0):
        A = A.T
    if a.get("transB", 0):
        B = B.T
    y = np.matmul(A, B)
    alpha = a.get("alpha", 1.0)
    if alpha != 1.0:
        y = y * ftype(alpha)
    if len(ins) > 2 and ins[2] is not None:
        beta = a.get("beta", 1.0)
        y = y + (ins[2] * ftype(beta) if beta != 1.0 else ins[2])
    return y.astype(ftype)


def _axes(ins, a, idx):
    if len(ins) > idx and ins[idx] is not None:
        return [int(v) for v in np.asarray(ins[idx]).reshape(-1)]
    v = a.get("axes")
    return None if v is None else [int(t) for t in v]


def op_reshape(ins, a, ftype):
    x, shape = ins[0], [int(v) for v in ins[1].reshape(-1)]
    if not a.get("allowzero", 0):
        shape = [x.shape[i] if s == 0 else s for i, s in enumerate(shape)]
    return x.reshape(shape)


def op_flatten(ins, a, ftype):
    x = ins[0]
    ax = a.get("axis", 1)
    if ax < 0:
        ax += x.ndim
    lead = int(np.prod(x.shape[:ax])) if ax > 0 else 1
    return x.reshape(lead, -1)


def op_squeeze(ins, a, ftype):
    axes = _axes(ins, a, 1)
    x = ins[0]
    if axes is None:
        return np.squeeze(x)
    return np.squeeze(x, axis=tuple(ax % x.ndim for ax in axes))


def op_unsqueeze(ins, a, ftype):
    axes = _axes(ins, a, 1)
    x = ins[0]
    rank = x.ndim + len(axes)
    for ax in sorted(ax % rank for ax in axes):
        x = np.expand_dims(x, ax)
    return x


def op_constant(ins, a, ftype):
    if "value" in a:
        return a["value"]
    if "value_float" in a:
        return np.array(a["value_float"], dtype=ftype)
    if "value_floats" in a:
        return np.array(a["value_floats"], dtype=ftype)
    if "value_int" in a:
        return np.array(a["value_int"], dtype=np.int64)
    if "value_ints" in a:
        return np.array(a["value_ints"], dtype=np.int64)
    raise CheckError("Constant: unsupported attribute %s" % list(a))


def op_shape(ins, a, ftype):
    s = np.array(ins[0].shape, dtype=np.int64)
    start = a.get("start", 0)
    end = a.get("end", None)
    return s[start:end]


def op_cast(ins, a, ftype):
    to = a["to"]
    if to not in DTYPES:
        raise CheckError("Cast to unsupported type %d" % to)
    return ins[0].astype(ftype if to in FLOAT_TYPES else DTYPES[to])


def op_div(ins, a, ftype):
    x, y = ins
    if np.issubdtype(x.dtype, np.integer) and np.issubdtype(y.dtype, np.integer):
        return (np.trunc(x / y)).astype(np.result_type(x, y))
    return np.divide(x, y)


def op_batchnorm(ins, a, ftype):
    x, scale, bias, mean, var = ins[:5]
    eps = ftype(a.get("epsilon", 1e-5))
    shp = (1, -1) + (1,) * (x.ndim - 2)
    return ((x - mean.reshape(shp)) / np.sqrt(var.reshape(shp) + eps) * scale.reshape(shp)
            + bias.reshape(shp)).astype(ftype)


def op_pad(ins, a, ftype):
    x = ins[0]
    mode = a.get("mode", "constant")
    if len(ins) > 1 and ins[1] is not None:
        pads = [int(v) for v in ins[1].reshape(-1)]
        value = ins[2].reshape(-1)[0] if len(ins) > 2 and ins[2] is not None and ins[2].size else 0
        axes = _axes(ins, {}, 3)
    else:
        pads = list(a.get("pads", []))
        value = a.get("value", 0.0)
        axes = None
    if axes is None:
        axes = list(range(x.ndim))
    axes = [ax % x.ndim for ax in axes]
    k = len(axes)
    width = [(0, 0)] * x.ndim
    crop = [slice(None)] * x.ndim
    for j, ax in enumerate(axes):
        lo, hi = pads[j], pads[j + k]
        width[ax] = (max(lo, 0), max(hi, 0))
        crop[ax] = slice(-lo if lo < 0 else 0, x.shape[ax] + hi if hi < 0 else None)
    x = x[tuple(crop)]
    if mode == "constant":
        return np.pad(x, width, mode="constant", constant_values=value)
    if mode in ("reflect", "edge", "wrap"):
        return np.pad(x, width, mode=mode)
    raise CheckError("Pad: unsupported mode %r" % mode)


def op_resize(ins, a, ftype, upsample=False):
    """Resize/Upsample, mode nearest: each output index's source by the ONNX formulas (float64)."""
    x = ins[0]
    if a.get("mode", "nearest") != "nearest":
        raise NotImplementedError("Resize mode %s" % a.get("mode"))
    ctm = "asymmetric" if upsample else a.get("coordinate_transformation_mode", "half_pixel")
    nm = "floor" if upsample else a.get("nearest_mode", "round_prefer_floor")
    if upsample:
        scales = ins[1] if len(ins) > 1 else np.array(a["scales"])
        sizes = None
    else:
        sc = ins[1] if len(ins) == 2 else (ins[2] if len(ins) > 2 else None)
        scales = sc if sc is not None and sc.size else None
        sizes = ins[3] if len(ins) > 3 and ins[3] is not None and ins[3].size else None
    idx = []
    for d in range(x.ndim):
        n_in = x.shape[d]
        if sizes is not None:
            n_out = int(sizes[d])
            s = n_out / n_in
        else:
            s = float(scales[d])
            n_out = int(math.floor(n_in * s))
        src = []
        for o in range(n_out):
            if ctm == "asymmetric":
                xo = o / s
            elif ctm == "align_corners":
                xo = o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
            elif ctm == "tf_half_pixel_for_nn":
                xo = (o + 0.5) / s
            elif ctm == "pytorch_half_pixel":
                xo = (o + 0.5) / s - 0.5 if n_out > 1 else 0.0
            else:
                xo = (o + 0.5) / s - 0.5
            f = math.floor(xo)
            r = {"floor": f, "ceil": math.ceil(xo),
                 "round_prefer_ceil": f + 1 if xo - f >= 0.5 else f}.get(
                     nm, f + 1 if xo - f > 0.5 else f)
            src.append(min(max(int(r), 0), n_in - 1))
        idx.append(np.array(src, dtype=np.int64))
    return x[np.ix_(*idx)].astype(ftype)


def op_split(ins, a, ftype, n_out):
    x, axis = ins[0], a.get("axis", 0)
    if len(ins) > 1 and ins[1] is not None:
        sizes = [int(v) for v in ins[1].reshape(-1)]
    elif "split" in a:
        sizes = [int(v) for v in a["split"]]
    else:
        d = x.shape[axis]
        if "num_outputs" in a:
            c = -(-d // n_out)
            sizes = [max(0, min(c, d - i * c)) for i in range(n_out)]
        else:
            if d % n_out:
                raise CheckError("Split: %d elements do not split into %d parts" % (d, n_out))
            sizes = [d // n_out] * n_out
    if len(sizes) != n_out or sum(sizes) != x.shape[axis]:
        raise CheckError("Split: sizes %s do not fit" % sizes)
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=axis))


def op_slice(ins, a, ftype):
    x = ins[0]
    if len(ins) > 1:
        starts = [int(v) for v in ins[1].reshape(-1)]
        ends = [int(v) for v in ins[2].reshape(-1)]
        axes = _axes(ins, {}, 3)
        steps = [int(v) for v in ins[4].reshape(-1)] if len(ins) > 4 and ins[4] is not None else None
    else:
        starts, ends, axes, steps = a["starts"], a["ends"], a.get("axes"), None
    if axes is None:
        axes = list(range(len(starts)))
    if steps is None:
        steps = [1] * len(starts)
    sl = [slice(None)] * x.ndim
    for s, e, ax, st in zip(starts, ends, axes, steps):
        sl[ax % x.ndim] = slice(s, e, st)
    return x[tuple(sl)]


def op_softmax(ins, a, ftype):
    x = ins[0]
    ax = a.get("axis", -1)
    e = np.exp(x - np.max(x, axis=ax, keepdims=True))
    return (e / np.sum(e, axis=ax, keepdims=True)).astype(ftype)


def _reduce(fn):
    def op(ins, a, ftype):
        x = ins[0]
        axes = _axes(ins, a, 1)
        if not axes:
            if a.get("noop_with_empty_axes", 0):
                return x
            axes = list(range(x.ndim))
        keep = bool(a.get("keepdims", 1))
        return np.asarray(fn(x, axis=tuple(axes), keepdims=keep)).astype(ftype)
    return op


def op_clip(ins, a, ftype):
    x = ins[0]
    lo = ins[1] if len(ins) > 1 and ins[1] is not None else a.get("min")
    hi = ins[2] if len(ins) > 2 and ins[2] is not None else a.get("max")
    if lo is not None:
        x = np.maximum(x, np.asarray(lo, dtype=x.dtype))
    if hi is not None:
        x = np.minimum(x, np.asarray(hi, dtype=x.dtype))
    return x


def _sigmoid(x):
    one = x.dtype.type(1)
    # split by sign so that exp never overflows
    out = np.empty_like(x)
    pos = x >= 0
    out[pos] = one / (one + np.exp(-x[pos]))
    e = np.exp(x[~pos])
    out[~pos] = e / (one + e)
    return out


def _softplus(x):
    # max(x, 0) + log1p(exp(-|x|)): never overflows, in the input's type
    return (np.maximum(x, x.dtype.type(0)) + np.log1p(np.exp(-np.abs(x)))).astype(x.dtype)


def _erf(x):
    # math.erf in double, rounded once to the input's type (numpy has no erf)
    return np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64)).astype(x.dtype)


def op_gelu(ins, a, f):
    """Gelu (opset 20) at its definition, the constants in the input's type: x (1 + erf(x c)) / 2,
    c = 1/sqrt(2); approximate "tanh": x (1 + tanh((x + 0.044715 x^3) sqrt(2/pi))) / 2."""
    x = ins[0]
    if a.get("approximate", "none") == "tanh":
        t = np.tanh((x + (x * x * x) * f(0.044715)) * f(math.sqrt(2.0 / math.pi)))
    else:
        t = _erf(x * f(1.0 / math.sqrt(2.0)))
    return ((x * (f(1) + t)) * f(0.5)).astype(x.dtype)


def op_range(ins):
    """Range as ONNX defines it: each element the last plus delta, in the inputs' type."""
    start, limit, delta = (np.asarray(v).reshape(()) for v in ins)
    n = max(int(math.ceil((float(limit) - float(start)) / float(delta))), 0)
    out = np.empty(n, dtype=start.dtype)
    v = start
    for k in range(n):
        out[k] = v
        v = (v + delta).astype(start.dtype)
    return out


def op_layernorm(ins, a, ftype):
    """LayerNormalization (opset 17) as its ONNX function body (stash_type 1: in the input's float
    type here), normalising from `axis` to the last dimension."""
    x, scale = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 and ins[2] is not None else None
    if a.get("stash_type", 1) != 1:
        raise CheckError("LayerNormalization: stash_type %s is not supported" % a["stash_type"])
    ax = a.get("axis", -1) % x.ndim
    axes = tuple(range(ax, x.ndim))
    eps = x.dtype.type(a.get("epsilon", 1e-5))
    d = x - np.mean(x, axis=axes, keepdims=True).astype(x.dtype)
    var = np.mean(d * d, axis=axes, keepdims=True).astype(x.dtype)
    y = d * (x.dtype.type(1) / np.sqrt(var + eps)) * scale
    if bias is not None:
        y = y + bias
    return y.astype(x.dtype)
def _elu(x, alpha, f):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, f(0)))).astype(f)


OPS = {
    "Gemm": op_gemm,
    "Exp": lambda i, a, f: np.exp(i[0]),
    "Log": lambda i, a, f: np.log(i[0]),
    "Sqrt": lambda i, a, f: np.sqrt(i[0]),
    "Reciprocal": lambda i, a, f: (i[0].dtype.type(1) / i[0]).astype(i[0].dtype),
    "Softplus": lambda i, a, f: _softplus(i[0]),
    "LayerNormalization": op_layernorm,
    "MatMul": lambda i, a, f: np.matmul(i[0], i[1]),
    "Add": lambda i, a, f: np.add(i[0], i[1]),
    "Sub": lambda i, a, f: np.subtract(i[0], i[1]),
    "Mul": lambda i, a, f: np.multiply(i[0], i[1]),
    "Div": op_div,
    "Neg": lambda i, a, f: np.negative(i[0]),
    "Relu": lambda i, a, f: np.maximum(i[0], i[0].dtype.type(0)),
    "LeakyRelu": lambda i, a, f: np.where(i[0] >= 0, i[0], i[0] * f(a.get("alpha", 0.01))),
    "Sigmoid": lambda i, a, f: _sigmoid(i[0]),
    "Sign": lambda i, a, f: np.sign(i[0]),
    "Sin": lambda i, a, f: np.sin(i[0]),
    "Cos": lambda i, a, f: np.cos(i[0]),
    "Tanh": lambda i, a, f: np.tanh(i[0]),
    "Erf": lambda i, a, f: _erf(i[0]),
    # comparisons and logic (of constants in the models verify reads), Where, Range, rounding
    "Equal": lambda i, a, f: np.equal(i[0], i[1]),
    "Less": lambda i, a, f: np.less(i[0], i[1]),
    "LessOrEqual": lambda i, a, f: np.less_equal(i[0], i[1]),
    "Greater": lambda i, a, f: np.greater(i[0], i[1]),
    "GreaterOrEqual": lambda i, a, f: np.greater_equal(i[0], i[1]),
    "Not": lambda i, a, f: np.logical_not(i[0]),
    "And": lambda i, a, f: np.logical_and(i[0], i[1]),
    "Or": lambda i, a, f: np.logical_or(i[0], i[1]),
    "Xor": lambda i, a, f: np.logical_xor(i[0], i[1]),
    "Where": lambda i, a, f: np.where(i[0], i[1], i[2]),
    "Range": lambda i, a, f: op_range(i),
    "Floor": lambda i, a, f: np.floor(i[0]),
    "Ceil": lambda i, a, f: np.ceil(i[0]),
    "Round": lambda i, a, f: np.round(i[0]),   # halves to even, as ONNX
    "Gelu": op_gelu,
    "Swish": lambda i, a, f: i[0] * _sigmoid(i[0] * f(a.get("alpha", 1.0))),
    "Flatten": op_flatten,
    "Reshape": op_reshape,
    "Identity": lambda i, a, f: i[0],
    "Dropout": lambda i, a, f: i[0],  # inference (verify refuses training_mode true)
    "Constant": op_constant,
    "Squeeze": op_squeeze,
    "Unsqueeze": op_unsqueeze,
    "Transpose": lambda i, a, f: np.transpose(i[0], a.get("perm")),
    "Shape": op_shape,
    "Gather": lambda i, a, f: np.take(i[0], i[1].astype(np.int64), axis=a.get("axis", 0)),
    "Concat": lambda i, a, f: np.concatenate([t for t in i if t is not None], axis=a["axis"]),
    "Cast": op_cast,
    "Conv": op_conv,
    "Expand": lambda i, a, f: np.broadcast_to(
        i[0], np.broadcast_shapes(i[0].shape, tuple(int(v) for v in i[1]))).copy(),
    "Tile": lambda i, a, f: np.tile(i[0], tuple(int(v) for v in i[1])),
    "Resize": op_resize,
    "Upsample": lambda i, a, f: op_resize(i, a, f, upsample=True),
    "PRelu": lambda i, a, f: np.where(i[0] >= 0, i[0], i[0] * i[1]).astype(f),
    "Abs": lambda i, a, f: np.abs(i[0]),
    # the base's type (ONNX's T1); a square is one rounded product, as a runtime computes it
    "Pow": lambda i, a, f: (np.multiply(i[0], i[0]) if np.all(i[1] == 2)
                            else np.power(i[0], i[1].astype(i[0].dtype))),
    "Max": lambda i, a, f: functools.reduce(np.maximum, i),
    "Min": lambda i, a, f: functools.reduce(np.minimum, i),
    "ConvTranspose": op_conv_transpose,
    "MaxPool": op_maxpool,
    "AveragePool": op_avgpool,
    "BatchNormalization": op_batchnorm,
    "Pad": op_pad,
    "Slice": op_slice,
    "Softmax": op_softmax,
    "ReduceMean": _reduce(np.mean),
    "ReduceSum": _reduce(np.sum),
    "ReduceMax": _reduce(np.max),
    "ReduceMin": _reduce(np.min),
    "GlobalMaxPool": lambda i, a, f: np.max(i[0], axis=tuple(range(2, i[0].ndim)), keepdims=True),
    "GlobalAveragePool": lambda i, a, f: np.mean(i[0], axis=tuple(range(2, i[0].ndim)),
                                                 keepdims=True).astype(f),
    "Clip": op_clip,
    "Split": None,  # several outputs: Network.run calls op_split
    # the activations ONNX defines as functions of others, at their definitions
    "HardSigmoid": lambda i, a, f: np.clip(i[0] * f(a.get("alpha", 0.2)) + f(a.get("beta", 0.5)),
                                           f(0), f(1)),
    "HardSwish": lambda i, a, f: i[0] * np.clip(i[0] * f(1.0 / 6.0) + f(0.5), f(0), f(1)),
    "Elu": lambda i, a, f: _elu(i[0], f(a.get("alpha", 1.0)), f),
    "Selu": lambda i, a, f: f(a.get("gamma", 1.05070102214813232421875)) * _elu(
        i[0], f(a.get("alpha", 1.67326319217681884765625)), f),
    "Celu": lambda i, a, f: (np.maximum(i[0], f(0)) + np.minimum(
        f(0), f(a.get("alpha", 1.0)) * np.expm1(i[0] / f(a.get("alpha", 1.0))))).astype(f),
    "Softsign": lambda i, a, f: i[0] / (f(1) + np.abs(i[0])),
    "Mish": lambda i, a, f: i[0] * np.tanh(np.logaddexp(f(0), i[0])),
    "Sum": lambda i, a, f: functools.reduce(np.add, i),
    "Mean": lambda i, a, f: (functools.reduce(np.add, i) / f(len(i))).astype(f),
}


class Network:
    def __init__(self, model):
        self.graph = model.graph
        g = self.graph
        init_names = {t.name for t in g.initializer}
        self.inputs = [vi for vi in g.input if vi.name not in init_names]
        if len(self.inputs) < 1:
            raise CheckError("network has no input")
        if len(g.output) < 1:
            raise CheckError("network has no output")
        self.input_shapes = []
        for vi in self.inputs:
            dims = []
            for d in vi.type.tensor_type.shape.dim:
                dims.append(d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else 1)
            self.input_shapes.append(tuple(dims))
        self.input_sizes = [int(np.prod(sh)) if sh else 1 for sh in self.input_shapes]
        self.input_names = [vi.name for vi in self.inputs]
        self.output_names = [vo.name for vo in g.output]
        for n in g.node:
            if n.domain not in ("", "ai.onnx"):
                raise CheckError("operator %s from domain %r is not supported" % (n.op_type, n.domain))
            if n.op_type not in OPS:
                raise CheckError("operator %s is not supported by check_cex.py" % n.op_type)

    def run_all(self, x_flat, ftype, values=None):
        """The outputs, each flattened, in the model's order, on the inputs' values one after
        another in x_flat (each row-major, in the model's order); then, if values lists names of
        the graph's values (declare-hidden), each of those flattened."""
        g = self.graph
        env = {t.name: tensor_to_array(t, ftype) for t in g.initializer}
        x = np.asarray(x_flat, dtype=ftype).reshape(-1)
        if x.size != sum(self.input_sizes):
            raise CheckError("%d input values for a network of %d" % (x.size,
                                                                     sum(self.input_sizes)))
        pos = 0
        for vi, shape, n in zip(self.inputs, self.input_shapes, self.input_sizes):
            env[vi.name] = x[pos:pos + n].reshape(shape)
            pos += n
        for node in g.node:
            ins = [env[nm] if nm else None for nm in node.input]
            a = attrs_of(node, ftype)
            try:
                if node.op_type == "Split":
                    outs = op_split(ins, a, ftype, len(node.output))
                    for nm, o in zip(node.output, outs):
                        if nm:
                            env[nm] = o
                    continue
                out = OPS[node.op_type](ins, a, ftype)
            except CheckError:
                raise
            except Exception as e:  # numpy shape errors etc.
                raise CheckError("evaluating %s node %r: %s" % (node.op_type, node.name, e))
            out = np.asarray(out)
            if np.issubdtype(out.dtype, np.floating) and out.dtype != ftype:
                out = out.astype(ftype)
            env[node.output[0]] = out
        for nm in values or []:
            if nm not in env:
                raise CheckError("the model has no value named %r (declare-hidden)" % nm)
        return [np.asarray(env[nm]).reshape(-1)
                for nm in [vo.name for vo in g.output] + list(values or [])]

    def run(self, x_flat, ftype, values=None):
        """Every output, flattened, one after another (then the values named, run_all)."""
        return np.concatenate(self.run_all(x_flat, ftype, values))


# ----------------------------------------------------------------------------------------------
# VNNLIB / s-expressions

def tokenize(text):
    text = re.sub(r";[^\n]*", " ", text)
    # VNNLIB 2.0 indices and shapes may hold spaces: [1, 5] is one token
    text = re.sub(r"\[[^\]()]*\]", lambda m: re.sub(r"\s+", "", m.group(0)), text)
    return re.findall(r"\(|\)|[^\s()]+", text)


def parse_sexprs(tokens, what):
    stack = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            if len(stack) == 1:
                raise CheckError("%s: unbalanced ')'" % what)
            e = stack.pop()
            stack[-1].append(e)
        else:
            stack[-1].append(t)
    if len(stack) != 1:
        raise CheckError("%s: unbalanced '('" % what)
    return stack[0]


VAR_RE = re.compile(r"^([XY])_(\d+)$")
TENSOR_REF_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)(?:\[([0-9,]*)\])?$")
SHAPE_RE = re.compile(r"^\[([0-9,]*)\]$")


def parse_shape(tok, what):
    m = SHAPE_RE.match(tok)
    if not m:
        raise CheckError("%s: bad shape %r" % (what, tok))
    return [int(d) for d in m.group(1).split(",")] if m.group(1) else []


def element_name(tensor, shape, flat):
    """The variable of a tensor's element at a row-major offset: X_f[0,0,0,3] (a scalar: X_f)."""
    if not shape:
        return tensor
    idx = []
    for d in reversed(shape):
        idx.append(flat % d)
        flat //= d
    return "%s[%s]" % (tensor, ",".join(str(i) for i in reversed(idx)))


def parse_number(tok, what):
    try:
        v = float(tok)
    except ValueError:
        raise CheckError("%s: not a number: %r" % (what, tok))
    if not math.isfinite(v):
        raise CheckError("%s: non-finite number %r" % (what, tok))
    return v


def exact_number(tok):
    """The literal's exact value as a Fraction (None when Fraction does not read it)."""
    try:
        return fractions.Fraction(tok)
    except (ValueError, ZeroDivisionError):
        return None


def _literal_value(t):
    """The exact value of a literal term, or of (- c) / (+ c) of one (SMT-LIB's negative
    numerals); None for any other term."""
    if t[0] == "const":
        return t[2]
    if t[0] in ("-", "+") and len(t[1]) == 1:
        v = _literal_value(t[1][0])
        return None if v is None else (-v if t[0] == "-" else v)
    return None


def _bound_literals(f, out):
    """The exact values of the literals compared with a single variable: out[name] = [...]."""
    if f[0] in ("and", "or"):
        for g in f[1]:
            _bound_literals(g, out)
        return
    _, _, lhs, rhs = f
    for a, b in ((lhs, rhs), (rhs, lhs)):
        v = _literal_value(b)
        if a[0] == "var" and v is not None:
            out.setdefault(a[1], []).append(v)


def _rounds_to(c, x):
    """Whether x is a float32 nearest to the exact value c (either one at a tie)."""
    f = np.float32(x)
    lo = fractions.Fraction(float(np.nextafter(f, np.float32(-np.inf))))
    hi = fractions.Fraction(float(np.nextafter(f, np.float32(np.inf))))
    d = abs(c - fractions.Fraction(x))
    return d <= abs(c - lo) and d <= abs(c - hi)


def float32_witness(formula, env, keys):
    """X (float32 values) outside the input region may still be the float32 rounding of a point
    of it, where an input's interval holds no float32 value (X_0 = 0.1): verify then prints the
    nearest float32 value, what a float32 runtime receives for any value of the interval. Returns
    env with each such input moved to a literal bounding it that rounds to its value (and the
    inputs of the same value without such a literal, tied to it, with it), when the region then
    holds (evaluated as the rest: in float64); else None."""
    if any(float(np.float32(env[k])) != env[k] for k in keys):
        return None
    lits = {}
    _bound_literals(formula, lits)
    moved = dict(env)
    for k in keys:
        for c in lits.get(k, []):
            if c != fractions.Fraction(env[k]) and _rounds_to(c, env[k]):
                moved[k] = float(c)
                break
    if moved == env:
        return None
    # inputs tied to a moved one (X_g[3] == X_f[3]: the same value, no literal of their own) move
    # with it
    to = {env[k]: moved[k] for k in keys if moved[k] != env[k]}
    tied = dict(moved)
    for k in keys:
        if moved[k] == env[k] and env[k] in to:
            tied[k] = to[env[k]]
    for cand in (tied, moved):
        if formula_eval(formula, cand, 0.0, inputs_only=True)[0]:
            return cand
    return None


class Tensor:
    """A VNNLIB 2.0 declare-input or declare-output: its name, element type, shape, kind ("X" or
    "Y"), its network's name, and the variable name of each element in row-major order."""

    def __init__(self, name, typ, shape, kind, net, keys):
        self.name, self.type, self.shape, self.kind, self.net, self.keys = \
            name, typ, shape, kind, net, keys


class NetDecl:
    """A VNNLIB 2.0 declare-network: its name, (relation, other network) for equal-to or
    isomorphic-to (or None), and its input and output tensors."""

    def __init__(self, name):
        self.name = name
        self.link = None
        self.xs = []  # its inputs' Tensors, in declaration order
        self.ys = []  # its outputs'
        self.hs = []  # its hidden nodes' (declare-hidden: ONNX values by name)

    def laid_out(self, kind, names):
        """Its inputs' (kind "X") or outputs' element variables in the model's order, names the
        model's input (output) names: matched by ONNX name when every tensor of the network gives
        one, else by order."""
        ts = self.xs if kind == "X" else self.ys
        what = "inputs" if kind == "X" else "outputs"
        if len(ts) != len(names):
            raise CheckError("network %s declares %d %s but its model has %d"
                             % (self.name, len(ts), what, len(names)))
        if all(t.onnx is not None for t in self.xs + self.ys):  # (hidden nodes always are)
            by = {t.onnx: t for t in ts}
            if sorted(by) != sorted(names):
                raise CheckError("network %s names the ONNX %s %s but its model has %s"
                                 % (self.name, what, sorted(by), sorted(names)))
            ts = [by[n] for n in names]
        return [k for t in ts for k in t.keys]


class Spec:
    """The conjunction of all asserts, as a formula tree; atoms are (op, lhs, rhs) term trees.

    Variables are strings: X_i and Y_i for VNNLIB 1 and for a VNNLIB 2.0 query over one network
    (its input's and output's elements in row-major order); over several networks, an element is
    named by its tensor's name and index, e.g. X_g[0,0,0,3]. A term's variable node is
    ("var", name, is_output)."""

    def __init__(self, text):
        self.nx = 0
        self.ny = 0
        declared = set()
        self.asserts = []
        self.networks = []  # VNNLIB 2.0: NetDecl in declaration order
        self.tensors = []   # VNNLIB 2.0: every Tensor in declaration order (X_f, Y_f, X_g, ...)
        consts = False
        exprs = parse_sexprs(tokenize(text), "vnnlib")
        for e in exprs:
            if not isinstance(e, list) or not e:
                raise CheckError("vnnlib: unexpected top-level token %r" % (e,))
        # elements named by tensor (X_f[0,3]) for several networks or tensors, else X_i / Y_i
        nets = [e for e in exprs if e[0] == "declare-network"]
        self.several = len(nets) > 1 or any(
            sum(1 for d in e[2:] if isinstance(d, list) and d
                and d[0] in ("declare-input", "declare-output", "declare-hidden")) > 2
            for e in nets)
        for e in exprs:
            head = e[0]
            if head == "vnnlib-version":
                continue
            if head == "declare-network":
                if consts:
                    raise CheckError("vnnlib: declare-network mixed with declare-const is not "
                                     "supported")
                self._network(e, declared, self.several)
            elif head == "declare-const":
                if self.networks:
                    raise CheckError("vnnlib: declare-network mixed with declare-const is not "
                                     "supported")
                consts = True
                if len(e) != 3 or not isinstance(e[1], str):
                    raise CheckError("vnnlib: bad declare-const %r" % (e,))
                m = VAR_RE.match(e[1])
                if not m:
                    raise CheckError("vnnlib: unsupported variable name %r" % e[1])
                declared.add(e[1])
                idx = int(m.group(2))
                if m.group(1) == "X":
                    self.nx = max(self.nx, idx + 1)
                else:
                    self.ny = max(self.ny, idx + 1)
            elif head == "assert":
                if len(e) != 2:
                    raise CheckError("vnnlib: assert takes one formula")
                self.asserts.append(self._formula(e[1], declared))
            elif head in ("set-logic", "set-info", "check-sat", "get-model", "exit", "set-option"):
                continue
            else:
                raise CheckError("vnnlib: unsupported command %r" % head)
        if not self.networks:
            for pre, n in (("X", self.nx), ("Y", self.ny)):
                for i in range(n):
                    if "%s_%d" % (pre, i) not in declared:
                        raise CheckError("vnnlib: %s_%d not declared (indices must be contiguous)"
                                         % (pre, i))
        self.formula = ("and", self.asserts)

    def _network(self, e, declared, several):
        """One network with one input and one output tensor (and at most one equal-to or
        isomorphic-to naming an earlier network). Alone, its elements are X_i / Y_i in row-major
        order; among several, NAME[i,...] by tensor name."""
        if len(e) < 2 or not isinstance(e[1], str):
            raise CheckError("vnnlib: declare-network needs a name")
        net = NetDecl(e[1])
        if any(n.name == net.name for n in self.networks):
            raise CheckError("vnnlib: network %s declared twice" % net.name)
        kinds = []
        for d in e[2:]:
            if isinstance(d, list) and d and d[0] in ("equal-to", "isomorphic-to"):
                if len(d) != 2 or not isinstance(d[1], str):
                    raise CheckError("vnnlib: bad %s %r" % (d[0], d))
                if net.link is not None:
                    raise CheckError("vnnlib: network %s has more than one equal-to/isomorphic-to"
                                     % net.name)
                if not any(n.name == d[1] for n in self.networks):
                    raise CheckError("vnnlib: network %s is %s %s, which is not declared before it"
                                     % (net.name, d[0], d[1]))
                net.link = (d[0], d[1])
                continue
            if not isinstance(d, list) or not d or d[0] not in ("declare-input", "declare-output",
                                                                 "declare-hidden"):
                raise CheckError("vnnlib: unsupported network declaration %r" % (d,))
            if len(d) not in (4, 5) or (d[0] == "declare-hidden" and len(d) != 5):
                raise CheckError("vnnlib: bad %s %r" % (d[0], d))
            kind = {"declare-input": "X", "declare-output": "Y", "declare-hidden": "H"}[d[0]]
            shape = parse_shape(d[3], "vnnlib")
            n = int(np.prod(shape)) if shape else 1
            if several:
                if not TENSOR_REF_RE.match(d[1]) or "[" in d[1]:
                    raise CheckError("vnnlib: unsupported tensor name %r" % d[1])
                if any(t.name == d[1] for t in self.tensors):
                    raise CheckError("vnnlib: tensor %s declared twice" % d[1])
                keys = [element_name(d[1], shape, i) for i in range(n)]
            else:
                keys = ["%s_%d" % (kind, i) for i in range(n)]
                if kind == "X":
                    self.nx = n
                else:
                    self.ny = n
                declared.update(keys)
            t = Tensor(d[1], d[2], shape, kind, net.name, keys)
            t.onnx = d[4].strip('"') if len(d) == 5 else None
            self.tensors.append(t)
            kinds.append(kind)
            {"X": net.xs, "Y": net.ys, "H": net.hs}[kind].append(t)
        n_x, n_h, n_y = kinds.count("X"), kinds.count("H"), kinds.count("Y")
        if n_x == 0 or n_y == 0 or kinds != ["X"] * n_x + ["H"] * n_h + ["Y"] * n_y:
            raise CheckError("vnnlib: network %s must declare its inputs, then its hidden nodes, "
                             "then its outputs" % net.name)
        self.networks.append(net)

    def _tensor_ref(self, e):
        """'X[0,3]' (or the bare name of a one-element tensor) -> its variable ('X_3' for one
        network, 'X_f[0,3]' for several); None if not a tensor."""
        m = TENSOR_REF_RE.match(e)
        if not m:
            return None
        for t in self.tensors:
            if t.name != m.group(1):
                continue
            shape = t.shape
            idx = [int(i) for i in m.group(2).split(",")] if m.group(2) else []
            if m.group(2) is None and int(np.prod(shape)) == 1:
                return t.keys[0], t.kind != "X"
            if len(idx) != len(shape) or any(i >= d for i, d in zip(idx, shape)):
                raise CheckError("vnnlib: bad index in %r for shape %r" % (e, shape))
            flat = 0
            for i, d in zip(idx, shape):
                flat = flat * d + i
            return t.keys[flat], t.kind != "X"
        if self.several and m.group(2) is not None:
            raise CheckError("vnnlib: undeclared tensor %s in %r" % (m.group(1), e))
        return None

    def _term(self, e, declared):
        if isinstance(e, str) and self.tensors and (self.several or not VAR_RE.match(e)):
            ref = self._tensor_ref(e)
            if ref is not None:
                return ("var", ref[0], ref[1])
        if isinstance(e, str):
            if VAR_RE.match(e) and not self.several:
                if e not in declared:
                    raise CheckError("vnnlib: undeclared variable %s" % e)
                return ("var", e, e[0] == "Y")
            return ("const", parse_number(e, "vnnlib"), exact_number(e))
        if not e or not isinstance(e[0], str):
            raise CheckError("vnnlib: bad term %r" % (e,))
        op = e[0]
        args = [self._term(t, declared) for t in e[1:]]
        if op in ("+", "*") and args:
            return (op, args)
        if op == "-" and len(args) in (1, 2):
            return (op, args)
        if op == "/" and len(args) == 2:
            return (op, args)
        raise CheckError("vnnlib: unsupported term operator %r" % op)

    def _formula(self, e, declared):
        if not isinstance(e, list) or not e:
            raise CheckError("vnnlib: bad formula %r" % (e,))
        op = e[0]
        if op in ("and", "or"):
            return (op, [self._formula(f, declared) for f in e[1:]])
        if op == "==":
            op = "="
        if op == "distinct":
            op = "!="
        if op in ("<=", ">=", "<", ">", "=") and len(e) > 3:  # chained: a <= b and b <= c
            return ("and", [self._formula([op, a, b], declared) for a, b in zip(e[1:], e[2:])])
        if op in ("<=", ">=", "<", ">", "=", "!="):
            if len(e) != 3:
                raise CheckError("vnnlib: %s takes two arguments" % op)
            return ("atom", op, self._term(e[1], declared), self._term(e[2], declared))
        raise CheckError("vnnlib: unsupported formula operator %r" % op)


def term_eval(t, env):
    k = t[0]
    if k == "const":
        return t[1]
    if k == "var":
        return env[t[1]]
    vals = [term_eval(a, env) for a in t[1]]
    if k == "+":
        return math.fsum(vals)
    if k == "*":
        p = 1.0
        for v in vals:
            p *= v
        return p
    if k == "-":
        return -vals[0] if len(vals) == 1 else vals[0] - vals[1]
    return vals[0] / vals[1]


def term_has_y(t):
    if t[0] == "var":
        return t[2]
    if t[0] == "const":
        return False
    return any(term_has_y(a) for a in t[1])


def formula_eval(f, env, tol, inputs_only=False):
    """Evaluate: atoms over Y get tolerance tol (X-only atoms are always exact).
    With inputs_only, atoms that mention Y count as true (to test the input region alone).
    Returns (truth, margin) where margin > 0 means violated by that much (for messages)."""
    if f[0] == "and":
        worst = -math.inf
        ok = True
        for g in f[1]:
            t, m = formula_eval(g, env, tol, inputs_only)
            ok = ok and t
            worst = max(worst, m)
        return ok, worst
    if f[0] == "or":
        best = math.inf
        for g in f[1]:
            t, m = formula_eval(g, env, tol, inputs_only)
            if t:
                return True, m
            best = min(best, m)
        return False, best if f[1] else math.inf
    _, op, lhs, rhs = f
    has_y = term_has_y(lhs) or term_has_y(rhs)
    if inputs_only and has_y:
        return True, -math.inf
    a = term_eval(lhs, env)
    b = term_eval(rhs, env)
    t = tol if has_y else 0.0
    if op == "!=":
        return abs(a - b) > t, -abs(a - b)
    if op in ("<=", "<"):
        m = a - b
    elif op in (">=", ">"):
        m = b - a
    else:
        m = abs(a - b)
    return (m < t if op in ("<", ">") else m <= t), m


# ----------------------------------------------------------------------------------------------
# Result file

def parse_result_v2(lines, spec):
    """VNNLIB 2.0's assignment: per declared tensor a line 'NAME TYPE [shape]', then its values
    one a line (row-major); the type as declared, or 'real' for a floating-point one."""
    vals = {}
    pos = 0
    for t in spec.tensors:
        name, typ, shape = t.name, t.type, t.shape
        if pos >= len(lines):
            raise CheckError("result file: no assignment for %s" % name)
        m = re.match(r"^(\S+)\s+(\S+)\s+(\[[0-9,\s]*\])$", lines[pos])
        if not m:
            raise CheckError("result file: bad assignment header %r" % lines[pos])
        if m.group(1) != name:
            raise CheckError("result file: expected %s, found %s" % (name, m.group(1)))
        if m.group(2).lower() not in (typ.lower(), "real"):
            raise CheckError("result file: %s has type %s, declared %s" % (name, m.group(2), typ))
        if parse_shape(re.sub(r"\s+", "", m.group(3)), "result file") != shape:
            raise CheckError("result file: %s has shape %s, declared %r"
                             % (name, m.group(3), shape))
        n = int(np.prod(shape)) if shape else 1
        if pos + 1 + n > len(lines):
            raise CheckError("result file: not enough values for %s" % name)
        for i in range(n):
            vals[t.keys[i]] = parse_number(lines[pos + 1 + i], "result file")
        pos += 1 + n
    if pos != len(lines):
        raise CheckError("result file: unexpected %r after the assignment" % lines[pos])
    return vals


def parse_result(text, spec=None):
    lines = text.strip().splitlines()
    if not lines:
        raise CheckError("result file is empty")
    verdict = lines[0].strip()
    if verdict != "sat":
        return verdict, None
    if spec is not None and spec.tensors:
        return verdict, parse_result_v2([l.strip() for l in lines[1:] if l.strip()], spec)
    body = "\n".join(lines[1:])
    vals = {}
    items = parse_sexprs(tokenize(body), "result file")
    # accept "((X_0 v) ...)" as well as bare "(X_0 v)" lines
    if len(items) == 1 and isinstance(items[0], list) and all(isinstance(i, list) for i in items[0]):
        items = items[0]
    for it in items:
        if not (isinstance(it, list) and len(it) == 2 and isinstance(it[0], str)
                and isinstance(it[1], str) and VAR_RE.match(it[0])):
            raise CheckError("result file: bad entry %r" % (it,))
        if it[0] in vals:
            raise CheckError("result file: %s given twice" % it[0])
        vals[it[0]] = parse_number(it[1], "result file")
    return verdict, vals


# ----------------------------------------------------------------------------------------------
# Models: which file each network runs

NAMED_MODEL_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_.-]*)=(.+)$")


def parse_model_args(args):
    """The models as given -> [(network name or None, path)]: one path; NAME=PATH arguments; or
    one argument holding VNN-COMP's list literal [('f', 'a.onnx'), ('g', 'b.onnx')]. An argument
    naming an existing file is always a path."""
    if isinstance(args, str):
        args = [args]
    if not args:
        raise CheckError("models: no model given")
    if len(args) == 1 and args[0].lstrip().startswith("[") and not os.path.exists(args[0]):
        try:
            v = ast.literal_eval(args[0].strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise CheckError("models: cannot read %r as a list [('NAME', 'PATH'), ...]" % args[0])
        if not isinstance(v, list) or not v or not all(
                isinstance(p, tuple) and len(p) == 2 and all(isinstance(x, str) for x in p)
                for p in v):
            raise CheckError("models: %r is not a non-empty list of ('NAME', 'PATH') pairs of "
                             "strings" % args[0])
        return list(v)
    out = []
    for a in args:
        m = NAMED_MODEL_RE.match(a)
        if m and not os.path.exists(a):
            out.append((m.group(1), m.group(2)))
        else:
            out.append((None, a))
    if len({n is None for n, _ in out}) > 1:
        raise CheckError("models: give either every model as NAME=PATH or only bare paths")
    return out


def bind_models(spec, given):
    """The model path of each network in declaration order (for a VNNLIB 1 spec, its one
    network's). Bare paths bind in declaration order, to every network or to every network not
    declared equal-to another; a network declared equal-to another and given no model uses that
    one's."""
    nets = spec.networks
    if not nets:
        if given[0][0] is not None:
            raise CheckError("models: a VNNLIB 1 spec names no network: give one model path "
                             "without NAME=")
        if len(given) != 1:
            raise CheckError("models: %d model paths given, but a VNNLIB 1 spec is over one "
                             "network" % len(given))
        return [given[0][1]]
    names = [n.name for n in nets]
    paths = {}
    if given[0][0] is not None:
        for name, path in given:
            if name not in names:
                raise CheckError("models: a model is given for network %s, which the spec does "
                                 "not declare (it declares %s)" % (name, ", ".join(names)))
            if name in paths:
                raise CheckError("models: two models given for network %s" % name)
            paths[name] = path
    else:
        primary = [n.name for n in nets if not (n.link and n.link[0] == "equal-to")]
        if len(given) == len(names):
            order = names
        elif len(given) == len(primary):
            order = primary
        else:
            raise CheckError(
                "models: %d model path%s given, but the spec declares %d network%s (%s)%s"
                % (len(given), "" if len(given) == 1 else "s", len(names),
                   "" if len(names) == 1 else "s", ", ".join(names),
                   "" if len(primary) == len(names) else
                   "; give one per network, or one per network not declared equal-to another (%s)"
                   % ", ".join(primary)))
        paths = dict(zip(order, (p for _, p in given)))
    for n in nets:
        if n.name not in paths:
            if n.link and n.link[0] == "equal-to" and n.link[1] in paths:
                paths[n.name] = paths[n.link[1]]
            else:
                raise CheckError("models: network %s has no model (give %s=PATH)"
                                 % (n.name, n.name))
    return [paths[n] for n in names]


# ----------------------------------------------------------------------------------------------
# The check

def judge(spec, env, y32, y64, x_rounds_out, notes, what):
    """Step 4: the spec on the inputs env and the outputs {Y variable: value} of the float32 and
    float64 passes; what: the invalid message's subject and verb."""
    def env_with(y):
        e = dict(env)
        e.update(y)
        return e

    ok32, m32 = formula_eval(spec.formula, env_with(y32), 0.0)
    ok64, m64 = formula_eval(spec.formula, env_with(y64), 0.0)
    if ok32 and ok64 and not x_rounds_out:
        return "valid", "; ".join(["spec holds exactly (float32 and float64 passes)"] + notes)
    tol_ok, mt = formula_eval(spec.formula, env_with(y32), SPEC_ATOL)
    if tol_ok:
        if not ok32:
            notes.append("spec violated by %.3g on the float32 pass" % m32)
        if not ok64:
            notes.append("spec violated by %.3g on the float64 pass" % m64)
        return "valid-with-tolerance", "; ".join(notes)
    return "invalid", "%s the spec (off by %.3g)" % (what, mt)


def check(models, spec_path, result_path):
    """Return (status, message): status is 'valid', 'valid-with-tolerance' or 'invalid'.
    models: a path, or the model arguments as given (see parse_model_args)."""
    spec = Spec(read_maybe_gz(spec_path).decode("utf-8", errors="replace"))
    paths = bind_models(spec, parse_model_args(models))
    with open(result_path, "r", encoding="utf-8", errors="replace") as f:
        verdict, vals = parse_result(f.read(), spec)
    if verdict != "sat":
        return "invalid", "result file says %r, not sat: there is no counterexample to check" % verdict
    pb = load_onnx_pb2()
    loaded = {}

    def load(path):
        key = os.path.realpath(path)
        if key not in loaded:
            data = read_maybe_gz(path)
            model = pb.ModelProto()
            try:
                model.ParseFromString(data)
            except Exception as e:
                raise CheckError("cannot parse %s as ONNX: %s" % (path, e))
            loaded[key] = (data, Network(model))
        return loaded[key]

    if spec.several:
        return check_several(spec, paths, load, vals)
    return check_one(spec, load(paths[0])[1], vals)


def check_one(spec, net, vals):
    """One network of one input and one output (VNNLIB 1, or 2.0 with one declare-network):
    variables X_i, Y_j."""
    if len(net.inputs) != 1 or len(net.output_names) != 1:
        raise CheckError("the spec declares one input and one output but the network has %d "
                         "inputs and %d outputs" % (len(net.inputs), len(net.output_names)))
    n_in = net.input_sizes[0]
    if spec.nx != n_in:
        raise CheckError("spec declares %d X but the network has %d inputs" % (spec.nx, n_in))

    missing = [("X_%d" % i) for i in range(spec.nx) if "X_%d" % i not in vals]
    if missing:
        return "invalid", "result file lacks %s" % ", ".join(missing[:5])
    extra = [k for k in vals if (k[0] == "X" and int(k[2:]) >= spec.nx)]
    if extra:
        return "invalid", "result file has unknown variables %s" % ", ".join(sorted(extra)[:5])

    x64 = np.array([vals["X_%d" % i] for i in range(spec.nx)], dtype=np.float64)
    x32 = x64.astype(np.float32)
    y32 = net.run(x32, np.float32)
    y64 = net.run(x32.astype(np.float64), np.float64)
    if spec.ny != y32.size:
        raise CheckError("spec declares %d Y but the network has %d outputs" % (spec.ny, y32.size))

    notes = []
    # 2. input region, exactly, on X as written
    env = {"X_%d" % i: float(x64[i]) for i in range(spec.nx)}
    ok, m = formula_eval(spec.formula, env, 0.0, inputs_only=True)
    if not ok:
        moved = float32_witness(spec.formula, env, list(env))
        if moved is None:
            return "invalid", "X is outside the input region (by %.3g)" % m
        notes.append("X is the float32 rounding of a point of the input region")
        env = moved
    env32 = {"X_%d" % i: float(x32[i]) for i in range(spec.nx)}
    x_rounds_out = not formula_eval(spec.formula, env32, 0.0, inputs_only=True)[0] and \
        env32 != {k: float(v) for k, v in zip(env32, x64)}
    if x_rounds_out:
        notes.append("float32(X) is outside the input region")

    # 3. Y in the file vs the float32 execution
    ys = [k for k in vals if k.startswith("Y")]
    if ys:
        bad = []
        for j in range(y32.size):
            k = "Y_%d" % j
            if k not in vals:
                bad.append("%s missing" % k)
                continue
            yn = float(y32[j])
            if not abs(vals[k] - yn) <= EXEC_ATOL + EXEC_RTOL * abs(yn):
                bad.append("%s=%.9g but the network gives %.9g" % (k, vals[k], yn))
        if any(int(k[2:]) >= y32.size for k in ys):
            bad.append("result file has more Y than network outputs")
        if bad:
            return "invalid", "Y does not match the network: " + "; ".join(bad[:3])
    else:
        return "invalid", "result file lists no Y (VNN-COMP wants the network output too)"

    # 4. the spec on (X, Y_net)
    return judge(spec, env, {"Y_%d" % j: float(y32[j]) for j in range(y32.size)},
                 {"Y_%d" % j: float(y64[j]) for j in range(y64.size)}, x_rounds_out, notes,
                 "the network output does not satisfy")


def check_several(spec, paths, load, vals):
    """Several networks (VNNLIB 2.0): each runs on its own input's values; the spec is evaluated
    on every network's inputs and outputs together. The assignment holds every element (its
    parser says so)."""
    runs = []
    by_name = {}
    for decl, path in zip(spec.networks, paths):
        data, net = load(path)
        if decl.link and decl.link[0] == "equal-to":
            other_path, other_data = by_name[decl.link[1]]
            if data != other_data:
                raise CheckError("network %s is declared equal-to %s, but its model %s differs "
                                 "from %s's %s" % (decl.name, decl.link[1], path, decl.link[1],
                                                   other_path))
        by_name[decl.name] = (path, data)
        x_keys = decl.laid_out("X", net.input_names)
        if len(x_keys) != sum(net.input_sizes):
            raise CheckError("network %s: the spec declares %d input elements but its model %s "
                             "has %d" % (decl.name, len(x_keys), path, sum(net.input_sizes)))
        x64 = np.array([vals[k] for k in x_keys], dtype=np.float64)
        x32 = x64.astype(np.float32)
        hidden = [t.onnx for t in decl.hs]   # after the outputs, as run() returns them
        y32 = net.run(x32, np.float32, hidden)
        y64 = net.run(x32.astype(np.float64), np.float64, hidden)
        y_keys = decl.laid_out("Y", net.output_names) + [k for t in decl.hs for k in t.keys]
        if len(y_keys) != y32.size:
            raise CheckError("network %s: the spec declares %d output elements but its model %s "
                             "has %d" % (decl.name, len(y_keys), path, y32.size))
        runs.append((x_keys, y_keys, decl, x64, x32, y32, y64))
    inputs = ", ".join(t.name for d in spec.networks for t in d.xs)

    notes = []
    # 2. input region, exactly, on every X as written
    env = {k: float(v) for xk, _, _, x64, _, _, _ in runs for k, v in zip(xk, x64)}
    ok, m = formula_eval(spec.formula, env, 0.0, inputs_only=True)
    written = dict(env)
    if not ok:
        moved = float32_witness(spec.formula, env, list(env))
        if moved is None:
            return "invalid", "the inputs (%s) are outside the input region (by %.3g)" % (inputs, m)
        notes.append("the inputs are the float32 rounding of a point of the input region")
        env = moved
    env32 = {k: float(v) for xk, _, _, _, x32, _, _ in runs for k, v in zip(xk, x32)}
    x_rounds_out = not formula_eval(spec.formula, env32, 0.0, inputs_only=True)[0] and \
        env32 != written
    if x_rounds_out:
        notes.append("float32 of the inputs (%s) is outside the input region" % inputs)

    # 3. each Y in the file vs its network's float32 execution
    bad = []
    for _, yk, d, _, _, y32, _ in runs:
        for k, yn in zip(yk, y32):
            yn = float(yn)
            if not abs(vals[k] - yn) <= EXEC_ATOL + EXEC_RTOL * abs(yn):
                bad.append("%s=%.9g but network %s gives %.9g" % (k, vals[k], d.name, yn))
    if bad:
        return "invalid", "the outputs do not match the networks: " + "; ".join(bad[:3])

    # 4. the spec on (X, Y_net) of every network
    return judge(spec, env,
                 {k: float(v) for _, yk, _, _, _, y32, _ in runs for k, v in zip(yk, y32)},
                 {k: float(v) for _, yk, _, _, _, _, y64 in runs for k, v in zip(yk, y64)},
                 x_rounds_out, notes, "the networks' outputs (%s) do not satisfy"
                 % ", ".join(t.name for d in spec.networks for t in d.ys))


def main(argv=None):
    ap = argparse.ArgumentParser(
        usage="%(prog)s MODEL [MODEL ...] SPEC RESULT",
        description="Check a VNN-COMP counterexample (result file) against the ONNX model(s) and "
                    "a VNNLIB spec. Prints valid, valid-with-tolerance or invalid: <why>.")
    ap.add_argument("models", nargs="+", metavar="MODEL",
                    help="ONNX model (.onnx or .onnx.gz); for a query over several networks, "
                         "NAME=PATH per network, bare paths in declaration order, or one "
                         "argument [('f', 'a.onnx'), ('g', 'b.onnx')] (VNN-COMP's instances.csv)")
    ap.add_argument("spec", help="VNNLIB spec (.vnnlib or .vnnlib.gz)")
    ap.add_argument("result", help="result file whose first line is sat")
    args = ap.parse_args(argv)
    try:
        status, msg = check(args.models, args.spec, args.result)
    except CheckError as e:
        print("error: %s" % e)
        return 2
    except OSError as e:
        print("error: %s" % e)
        return 2
    if status == "valid":
        print("valid")
        return 0
    if status == "valid-with-tolerance":
        print("valid-with-tolerance" + (" (%s)" % msg if msg else ""))
        return 1
    print("invalid: %s" % msg)
    return 1


if __name__ == "__main__":
    sys.exit(main())
