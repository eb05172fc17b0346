#!/usr/bin/env python3
"""Per-operator bit comparison of the engine against LiteRT's XNNPACK path.

For one float model it
  1. rewrites the flatbuffer so that every tensor an operator writes (except DEQUANTIZE and
     DENSIFY outputs, which are constant weights) is also a subgraph output (the schema object
     API shipped with ai-edge-litert: `ai_edge_litert.schema_py_generated`);
  2. runs that model in LiteRT (XNNPACK delegate, one thread) and with the engine
     (`vision-tasks run-model`, one thread) on the same input (seeded random in the model's input
     range, the SplitMix64 recipe of make_inference_golden.py);
  3. walks the operators in execution order and, for each, reports whether its tensor inputs are
     bitwise equal between the two runs and whether its output is. An operator with equal inputs
     and a different output is one whose arithmetic differs from XNNPACK's ("DIVERGES"); one with
     different inputs only inherits earlier differences ("inherited").

Modes:
  (default)   the in-graph walk above; `--all` lists every operator, not only diverging ones.
  --isolate   instead runs every operator alone (a one-operator model fed with LiteRT's own
              input tensors) in both, so every diverging operator kind shows at once, not only the
              first one in execution order.
  --final     compares only the unmodified model's outputs (all fusions active), every element:
              max scaled error and the fraction of elements whose bits differ.
  --threads N runs the engine with N threads (results must not depend on it).
  --isa NAME  runs the engine's kernels of that instruction set (avx512, avx2, neon, portable;
              default: the best this CPU has), so every build can be held to LiteRT's bits.

Caveat: exposing every intermediate tensor stops XNNPACK (and the engine) from fusing operators
across those tensors, so the walk compares the unfused arithmetic of each operator; use --final
for the fused model.

Findings (Dec 2026, see docs/ENGINE.md, Accuracy): depthwise taps column-major, few-channel
convolutions in igemm order, XNNPACK's resize-bilinear coordinates and unfused lerp, MEAN as
sum × (1/count), XNNPACK's AVX-512 sigmoid and flushed denormals made all six float models
bitwise identical to LiteRT.

Usage:
  ~/.cache/mediapipe-oracle-venv/bin/python scripts/reference/op_bit_parity.py \
      BUNDLE.task MEMBER.tflite [--seed N] [--binary .build/release/vision-tasks] [--threads 1] \
      [--isa portable] [--all] [--isolate | --final]
  (a plain .tflite takes no MEMBER)
"""
import argparse
import os
import subprocess
import sys
import tempfile
import zipfile

import flatbuffers
import numpy as np
from ai_edge_litert import interpreter as litert
from ai_edge_litert import schema_py_generated as schema

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from make_inference_golden import random_input  # noqa: E402

# Operators that only turn constant weights into float weights (fp16 or sparse storage).
WEIGHT_OPS = ("DEQUANTIZE", "DENSIFY")

OPNAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}


def input_low(args):
    """Lower end of the input range: [-1, 1] for the pose detector, [0, 1] for the other models
    (their normalisations in make_inference_golden.py's MODELS table)."""
    return -1.0 if "pose_detector" in (args.member or args.bundle) else 0.0


def load(bundle, member):
    if bundle.endswith(".tflite"):
        with open(bundle, "rb") as f:
            return f.read()
    with zipfile.ZipFile(bundle) as z:
        return z.read(member)


def expose_all(model_bytes):
    """Returns (new model bytes, [(op index, opname, input ids, output ids)], exposed tensor ids)."""
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model_bytes, 0))
    graph = model.subgraphs[0]
    ops = []
    exposed = list(graph.outputs)
    for i, op in enumerate(graph.operators):
        code = model.operatorCodes[op.opcodeIndex]
        kind = max(code.builtinCode, code.deprecatedBuiltinCode)
        name = OPNAMES.get(kind, str(kind))
        ops.append((i, name, [t for t in op.inputs if t >= 0], list(op.outputs)))
        if name in WEIGHT_OPS:
            continue
        for t in op.outputs:
            if t not in exposed:
                exposed.append(t)
    graph.outputs = exposed
    builder = flatbuffers.Builder(len(model_bytes) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output()), ops, exposed, graph


def ulp_distance(a, b):
    ia = a.view(np.int32).astype(np.int64)
    ib = b.view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return np.abs(ia - ib)


def single_op_model(model_bytes, op_index, ops):
    """A model holding operator `op_index` (plus the DEQUANTIZE operators feeding it) alone."""
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model_bytes, 0))
    graph = model.subgraphs[0]
    producers = {t: i for i, _, _, outs in ops for t in outs}
    target = graph.operators[op_index]
    keep_indices = set()
    live_inputs = []

    def add_weight_chain(p):
        # A weight operator and the weight operators feeding it (e.g. DENSIFY then DEQUANTIZE).
        keep_indices.add(p)
        for u in graph.operators[p].inputs:
            q = producers.get(u)
            if u >= 0 and q is not None and ops[q][1] in WEIGHT_OPS:
                add_weight_chain(q)

    for t in target.inputs:
        if t < 0:
            continue
        p = producers.get(t)
        if p is not None and ops[p][1] in WEIGHT_OPS:
            add_weight_chain(p)
        elif graph.tensors[t].buffer == 0 or not (model.buffers[graph.tensors[t].buffer].data is not None
                                                  and len(model.buffers[graph.tensors[t].buffer].data) > 0):
            if t not in live_inputs:
                live_inputs.append(t)
    graph.operators = [graph.operators[i] for i in sorted(keep_indices)] + [target]
    graph.inputs = live_inputs
    graph.outputs = list(target.outputs)
    model.signatureDefs = []
    builder = flatbuffers.Builder(len(model_bytes) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output()), live_inputs, list(target.outputs)


def engine_command(args, model_path, out_dir):
    """The `vision-tasks run-model` command line for `model_path` (inputs appended by callers)."""
    command = [args.binary, "run-model", model_path, "--output-dir", out_dir, "--threads", str(args.threads)]
    if args.isa:
        command += ["--isa", args.isa]
    return command


def run_engine(args, model_bytes, inputs):
    """Our engine's first output for `model_bytes` on `inputs`."""
    with tempfile.TemporaryDirectory() as tmp:
        model_path = os.path.join(tmp, "model.tflite")
        with open(model_path, "wb") as f:
            f.write(model_bytes)
        return run_engine_all(args, model_path, inputs, 1, tmp)[0]


def isolate(original, ops, reference, args):
    """Runs every non-DEQUANTIZE operator alone on LiteRT's tensors; prints the ones that differ."""
    counts = {}
    seen_kinds = {}
    for index, name, inputs, outputs in ops:
        if name in WEIGHT_OPS or name == "RESHAPE":
            continue
        single, live, outs = single_op_model(original, index, ops)
        interp = litert.Interpreter(model_content=single, num_threads=1)
        interp.allocate_tensors()
        values = [reference[t] for t in live]
        for d, v in zip(interp.get_input_details(), values):
            interp.set_tensor(d["index"], v.reshape(d["shape"]))
        interp.invoke()
        lite = interp.get_tensor(interp.get_output_details()[0]["index"]).reshape(-1)
        ours = run_engine(args, single, values)
        in_graph_equal = np.array_equal(lite.view(np.int32), reference[outs[0]].view(np.int32))
        equal = np.array_equal(lite.view(np.int32), ours.view(np.int32))
        status = "exact" if equal else "DIFFERS"
        counts[(name, status)] = counts.get((name, status), 0) + 1
        if args.all or not equal:
            diff = float(np.max(np.abs(ours.astype(np.float64) - lite)))
            frac = float(np.mean(lite.view(np.int32) != ours.view(np.int32)))
            print(f"op {index:4d} {name:22s} {status:8s} max|d| {diff:.3g} differing {frac:.3f} "
                  f"alone==in-graph {in_graph_equal} shape {list(lite.shape)}", flush=True)
    print("summary (operator, status): count")
    for (name, status), n in sorted(counts.items()):
        print(f"  {name:22s} {status:8s} {n}")


def run_litert(model, args):
    """Runs `model` once in LiteRT (XNNPACK, one thread) on the seeded input; returns the
    interpreter and the input."""
    interp = litert.Interpreter(model_content=model, num_threads=1)
    interp.allocate_tensors()
    detail = interp.get_input_details()[0]
    shape = [int(d) for d in detail["shape"]]
    data = random_input(args.seed, int(np.prod(shape)), input_low(args), 1.0)
    interp.set_tensor(detail["index"], data.reshape(shape))
    interp.invoke()
    return interp, data


def compare_final(original, args):
    """Max scaled error and bitwise equality of every output of the unmodified model."""
    interp, data = run_litert(original, args)
    lite = [interp.get_tensor(d["index"]).reshape(-1) for d in interp.get_output_details()]
    with tempfile.TemporaryDirectory() as tmp:
        model_path = os.path.join(tmp, "model.tflite")
        with open(model_path, "wb") as f:
            f.write(original)
        ours = run_engine_all(args, model_path, [data], len(lite), tmp)
    for i, (a, b) in enumerate(zip(ours, lite)):
        scaled = float(np.max(np.abs(a.astype(np.float64) - b) / np.maximum(1.0, np.abs(b.astype(np.float64)))))
        frac = float(np.mean(a.view(np.int32) != b.view(np.int32)))
        print(f"output {i}: {b.size} elements, max scaled error {scaled:.3g}, differing bits in {frac:.4f}")


def run_engine_all(args, model_path, inputs, count, tmp):
    command = engine_command(args, model_path, os.path.join(tmp, "out"))
    for i, value in enumerate(inputs):
        path = os.path.join(tmp, f"input_{i}.f32")
        value.astype("<f4").tofile(path)
        command += ["--input", path]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return [np.fromfile(os.path.join(tmp, "out", f"output_{i}.f32"), dtype="<f4") for i in range(count)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("member", nargs="?")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "vision-tasks"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--isa", help="the engine's instruction set (avx512, avx2, neon, portable)")
    parser.add_argument("--all", action="store_true", help="list every operator, not only divergent ones")
    parser.add_argument("--final", action="store_true",
                        help="only compare the unmodified model's outputs (with every fusion) over all elements")
    parser.add_argument("--isolate", action="store_true",
                        help="run every operator alone on LiteRT's own input tensors instead of the in-graph walk")
    args = parser.parse_args()

    original = load(args.bundle, args.member)
    if args.final:
        compare_final(original, args)
        return
    modified, ops, exposed, graph = expose_all(original)
    interp, data = run_litert(modified, args)
    reference = {}
    for d, tid in zip(interp.get_output_details(), exposed):
        reference[tid] = interp.get_tensor(d["index"]).copy().reshape(-1)
    graph_input = graph.inputs[0]
    reference[graph_input] = data

    with tempfile.TemporaryDirectory() as tmp:
        model_path = os.path.join(tmp, "model.tflite")
        with open(model_path, "wb") as f:
            f.write(modified)
        input_path = os.path.join(tmp, "input.f32")
        data.astype("<f4").tofile(input_path)
        out_dir = os.path.join(tmp, "out")
        subprocess.run(engine_command(args, model_path, out_dir) + ["--input", input_path], check=True,
                       stdout=subprocess.DEVNULL)
        ours = {graph_input: data}
        for i, tid in enumerate(exposed):
            ours[tid] = np.fromfile(os.path.join(out_dir, f"output_{i}.f32"), dtype="<f4")

    if args.isolate:
        isolate(original, ops, reference, args)
        return
    counts = {}
    worst = 0.0
    for index, name, inputs, outputs in ops:
        if name in WEIGHT_OPS:
            continue
        live = [t for t in inputs if t in reference]
        inputs_equal = all(np.array_equal(reference[t].view(np.int32), ours[t].view(np.int32)) for t in live)
        out = outputs[0]
        a, b = ours[out], reference[out]
        equal = np.array_equal(a.view(np.int32), b.view(np.int32))
        diff = float(np.max(np.abs(a.astype(np.float64) - b))) if a.size else 0.0
        scaled = float(np.max(np.abs(a.astype(np.float64) - b) / np.maximum(1.0, np.abs(b.astype(np.float64)))))
        worst = max(worst, scaled)
        ulps = int(ulp_distance(a, b).max()) if a.size else 0
        frac = float(np.mean(a.view(np.int32) != b.view(np.int32)))
        status = "exact" if equal else ("DIVERGES" if inputs_equal else "inherited")
        key = (name, status)
        counts[key] = counts.get(key, 0) + 1
        if args.all or status == "DIVERGES":
            tname = graph.tensors[out].name.decode() if graph.tensors[out].name else ""
            print(f"op {index:4d} {name:22s} {status:9s} max|d| {diff:.3g} ulp {ulps} differing {frac:.3f} "
                  f"shape {list(graph.tensors[out].shape)} {tname}")
    print("summary (operator, status): count")
    for (name, status), n in sorted(counts.items()):
        print(f"  {name:22s} {status:9s} {n}")
    print(f"max scaled difference over all intermediate tensors: {worst:.3g}")


if __name__ == "__main__":
    main()
