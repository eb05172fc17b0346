"""Formats the raw lines of scripts/benchmarks/run.sh into the model and memory section of
docs/BENCHMARKS.md: the text between the two markers below is replaced (the section is put
right after the title when absent); the rest of the file is left alone.

usage: make_table.py RAW [--iterations N] [--rounds N] [--out FILE]   (without --out: prints the section)
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

BEGIN = "<!-- models:begin (scripts/benchmarks/run.sh) -->"
END = "<!-- models:end -->"


def cpu_model():
    """The CPU's model name, with its family and model numbers when /proc/cpuinfo has them: this
    project's virtual machines have come up on both Intel Xeon and AMD EPYC hosts under names
    that do not tell the generation."""
    fields = {}
    try:
        for line in open("/proc/cpuinfo"):
            key, _, value = line.partition(":")
            key = key.strip()
            if key in ("model name", "cpu family", "model") and key not in fields:
                fields[key] = value.strip()
            if not line.strip() and fields:
                break
    except OSError:
        pass
    name = fields.get("model name")
    if not name:
        return platform.processor() or platform.machine()
    if "cpu family" in fields and "model" in fields:
        return f"{name} (family {fields['cpu family']}, model {fields['model']})"
    return name


def cpu_flags():
    """The flags /proc/cpuinfo lists for the first CPU (empty where there is none)."""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def simd_flags():
    flags = cpu_flags()
    wanted = ["sse4_2", "avx", "avx2", "fma", "avx512f", "avx512vl", "avx512bw", "avx512dq"]
    listed = " ".join(f for f in wanted if f in flags)
    # The flags are the CPU's; with HIDE_AVX512=1 no measured program saw the AVX-512 ones.
    return listed + (" (AVX-512 hidden from both sides)" if avx512_hidden() and "avx512f" in flags else "")


def kernel_isa():
    """The instruction set the engine's kernels choose on this machine, by the rule of
    Sources/CVisionKernels/dispatch.c (`vk_best_isa`): AVX-512 with F, VL, BW and DQ (and AVX2 and
    FMA), else AVX2 with FMA; NEON on 64-bit ARM; the portable C otherwise."""
    if platform.machine() in ("aarch64", "arm64"):
        return "neon"
    flags = cpu_flags()
    if avx512_hidden():
        flags = {flag for flag in flags if not flag.startswith("avx512")}
    if {"avx2", "fma"} <= flags:
        return "avx512" if {"avx512f", "avx512vl", "avx512bw", "avx512dq"} <= flags else "avx2"
    return "portable"


def avx512_hidden():
    """Whether run.sh preloads scripts/benchmarks/hide_avx512.c into both sides (HIDE_AVX512=1):
    an AVX-512 machine then times the AVX2 paths of our engine and of LiteRT and MediaPipe."""
    return os.environ.get("HIDE_AVX512") == "1"


def host_kind(isa=None):
    """How the file tells host kinds apart: the CPU model and the kernels' instruction set (and
    whether AVX-512 was hidden from both sides, which makes a kind of its own)."""
    return f"{cpu_model()}, {isa or kernel_isa()} kernels" + (", AVX-512 hidden" if avx512_hidden() else "")


def host_markers(begin, end, host):
    """The markers of one host kind's copy of a section: `begin` and `end` with the host named."""
    return f"{begin[:-4]} {host} -->", f"{end[:-4]} {host} -->"


def lscpu_line(key):
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            if line.startswith(key + ":"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def litert_version():
    try:
        from importlib.metadata import version
        return version("ai-edge-litert")
    except Exception:
        return "unknown"


def summary(values):
    """Median of round medians and the range of the round medians."""
    if not values:
        return None
    return statistics.median(values), min(values), max(values)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("raw")
    parser.add_argument("--iterations", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=0)
    parser.add_argument("--out")
    args = parser.parse_args()
    lines = []

    def print(text=""):  # noqa: A001 - collects the section's lines
        lines.append(text)

    ours, litert, details, machine, loads = {}, {}, {}, {}, []
    macs, profiles, peaks = {}, {}, []
    # Per key, each round's median per-turn ratio and each side's fastest invoke.
    ratios, ours_min, litert_min = {}, {}, {}
    for line in open(args.raw):
        row = json.loads(line)
        if row["side"] == "machine":
            if "round" in row:
                loads.append(row["load"])
            elif "fmaPeak" in row:
                peaks.append(row["fmaPeak"])
            else:
                machine.update({k: v for k, v in row.items() if k != "side"})
            continue
        if row["side"] == "macs":
            macs[(row["model"], row["member"])] = row["macs"]
            continue
        if row["side"] == "profile":
            profiles[(row["model"], row["member"])] = row["ops"]
            continue
        # A turn-for-turn run (litert_bench.py --ours): both sides' times and the per-turn ratio.
        result = row["result"]
        key = (result["model"], result["member"], result["threads"])
        ours.setdefault(key, []).append(result["ours"]["medianMs"])
        litert.setdefault(key, []).append(result["medianMs"])
        ratios.setdefault(key, []).append(result["medianRatio"])
        ours_min.setdefault(key, []).append(result["ours"]["minMs"])
        litert_min.setdefault(key, []).append(result["minMs"])
        details[key] = result["ours"]

    keys = sorted({(m, member) for (m, member, _) in ours}, key=lambda key: (key[1] is None, key[0], key[1] or ""))

    # Plain model files that are quantized (the others are float, like the bundles' members).
    quantized = {"ssd_mobilenet_v1.tflite", "ssd_mobilenet_v1_no_metadata.tflite"}

    def name(model, member):
        if member:
            return f"{model}: {member}"
        return f"{model} (quantized UINT8)" if model in quantized else model

    def cell(stats):
        return f"**{stats[0]:.2f}** [{stats[1]:.2f}–{stats[2]:.2f}]" if stats else "–"

    def ratio(key):
        """The median over the rounds of the per-turn ratios."""
        return f"{statistics.median(ratios[key]):.2f}×" if ratios.get(key) else "–"

    def fastest(key):
        pairs = list(zip(ours_min.get(key, []), litert_min.get(key, [])))
        return f"{statistics.median(a / b for a, b in pairs):.2f}×" if pairs else "–"

    # One section per host kind (CPU model and kernel instruction set): a run on another kind of
    # machine adds its own table instead of replacing this one.
    isa = next((d.get("instructionSet") for d in details.values() if d.get("instructionSet")), "unknown")
    host = host_kind(isa)
    begin, end = host_markers(BEGIN, END, host)
    print(begin + "\n")
    print(f"## Models against LiteRT: {host}\n")
    print("Generated by `scripts/benchmarks/run.sh` in one run: our engine and LiteRT on the same machine, in the")
    print("same session, alternating invoke for invoke.\n")
    print(f"- CPU: {cpu_model()}, {os.cpu_count()} logical CPUs"
          + (f" ({lscpu_line('Thread(s) per core')} thread(s) per core)" if lscpu_line('Thread(s) per core') else "")
          + f"; SIMD: {simd_flags()}; {platform.platform()}.")
    print(f"- Ours: `vision-tasks bench-model MODEL --member NAME --threads N --driven`, release build, kernels: {isa}; "
          f"LiteRT: `ai-edge-litert` {litert_version()} `Interpreter(num_threads=N)` (XNNPACK, its default delegate). "
          "`scripts/benchmarks/litert_bench.py --ours` alternates them turn for turn: after warm-up, each turn two "
          f"`invoke()`, the second timed, {args.iterations} turns each per measurement (scripts/benchmarks/driven.py).")
    print(f"- Each time: median over {args.rounds} rounds of the per-round median ms of one `invoke()` "
          "[range of the round medians]. Ratio = ours / LiteRT (below 1 = faster than LiteRT): median over the rounds "
          "of the median of the per-turn ratios, each comparing two invokes made within milliseconds of each other. "
          "Fastest = ours' fastest invoke / LiteRT's fastest, median over the rounds: the ratio with the core to itself.")
    print("- This shared machine's cores slow down in phases of milliseconds to seconds (a neighbour on the sibling "
          "hardware thread or in the shared cache); the more of the core's multiply-add units a side uses, the more "
          "it loses in them, so the per-turn ratio sits above the fastest one (docs/ENGINE.md, \"Shared cores\").")
    if avx512_hidden():
        print("- AVX-512 hidden: both sides ran with scripts/benchmarks/hide_avx512.c preloaded (HIDE_AVX512=1), which "
              "takes the AVX-512 bits out of what CPUID tells them, so XNNPACK runs its FMA3 micro-kernels and ours "
              "its AVX2 kernels, as on a CPU without AVX-512; caches, clock and multiply-add units stay this "
              "machine's.")
    print(f"- Load average (1, 5, 15 min) before: {machine.get('loadBefore', '?')}; after: {machine.get('loadAfter', '?')}; "
          f"1-minute load at the start of each round: {', '.join(loads) if loads else '?'}. The machine's two cores are "
          "shared with other jobs: ranges show rounds disturbed by them.\n")

    print("| model | ours 1 thread | LiteRT 1 thread | ratio 1T | fastest 1T | ours 2 threads | LiteRT 2 threads "
          "| ratio 2T | fastest 2T | ours 1T/2T | LiteRT 1T/2T |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for model, member in keys:
        o1, o2 = summary(ours.get((model, member, 1), [])), summary(ours.get((model, member, 2), []))
        l1, l2 = summary(litert.get((model, member, 1), [])), summary(litert.get((model, member, 2), []))
        speedup = f"{o1[0] / o2[0]:.2f}×" if o1 and o2 else "–"
        lspeedup = f"{l1[0] / l2[0]:.2f}×" if l1 and l2 else "–"
        print(f"| {name(model, member)} | {cell(o1)} | {cell(l1)} | {ratio((model, member, 1))} "
              f"| {fastest((model, member, 1))} | {cell(o2)} | {cell(l2)} | {ratio((model, member, 2))} "
              f"| {fastest((model, member, 2))} | {speedup} | {lspeedup} |")

    peak = max((p.get("peakGmacs", 0) for p in peaks), default=0)
    if peak and macs:
        print("\n### Share of the FMA peak, and where one thread's time goes\n")
        peak_runs = ", ".join(f"{p.get('peakGmacs', 0):.1f}" for p in peaks)
        peak_isa = peaks[0].get("isa", "?")
        print(f"One core's peak, measured by `scripts/benchmarks/fma_peak.c` before and after the rounds ({peak_isa}, "
              f"independent multiply-add chains): {peak_runs} billion float multiply-adds per second; the higher is "
              "used. A model's share = its multiply-adds (`vision-tasks inspect --json`) / (ours 1-thread median × "
              "peak); at the fastest invoke: with ours' fastest one-thread invoke (median over the rounds) instead of "
              "the median. The count is the dense one: the pose detector's pruned 1×1 convolutions (25 % non-zero) "
              "run from their non-zeros only, so it can pass 100 %; the quantized SSD's 8-bit products are not float "
              "multiply-adds (no share given). Operator shares: one `bench-model --threads 1 --profile` run after the rounds (median ms per "
              "operator type; fused operators count under the kernel that runs them).\n")
        print("| model | dense multiply-adds (M) | ours 1T GMAC/s | share of peak | at the fastest invoke "
              "| time by operator (1 thread) |")
        print("|---|---:|---:|---:|---:|---|")
        for model, member in keys:
            count = macs.get((model, member))
            o1 = summary(ours.get((model, member, 1), []))
            if not count or not o1:
                continue
            rate = count / (o1[0] * 1e-3) / 1e9
            ops = profiles.get((model, member), {})
            total = sum(ops.values())
            top = sorted(ops.items(), key=lambda item: -item[1])[:4]
            shares = ", ".join(f"{op} {ms / total:.0%}" for op, ms in top if total > 0) or "–"
            share = "(int8)" if model in quantized else f"{rate / peak:.0%}"
            low = statistics.median(ours_min.get((model, member, 1), [])) if ours_min.get((model, member, 1)) else None
            best = "–" if model in quantized or not low else f"{count / (low * 1e-3) / 1e9 / peak:.0%}"
            print(f"| {name(model, member)} | {count / 1e6:.1f} | {rate:.1f} | {share} | {best} | {shares} |")

    print("\n### Memory\n")
    print("| model | arena MB | packed weights MB | total MB |")
    print("|---|---:|---:|---:|")
    for model, member in keys:
        d = details.get((model, member, 1))
        if d and "arenaBytes" in d and "weightBytes" in d:
            print(f"| {name(model, member)} | {d['arenaBytes'] / 1e6:.1f} | {d['weightBytes'] / 1e6:.1f} "
                  f"| {(d['arenaBytes'] + d['weightBytes']) / 1e6:.1f} |")
    print("\nArena: intermediate tensors, inputs, outputs and per-thread scratch (1 thread); packed weights:")
    print("constants as the kernels keep them (packed panels, sparse lists, biases).")
    print("\nReproduce: `scripts/benchmarks/run.sh` (a models folder as its argument; `ITERATIONS`, `ROUNDS`, `VENV`,")
    print("`OUT`, `TASKS=0` to skip the tasks in the environment).")
    print("\n" + end)
    write_section("\n".join(lines) + "\n", args.out, begin, end)


def write_section(section, out, begin=BEGIN, end=END):
    """Replaces the section between `begin` and `end` of `out` (this script's by default), or
    prints it when `out` is None. A section not yet in the file goes right after the last copy of
    the same section for another host kind (the end markers share their text up to the host), else
    right after the title."""
    if out is None:
        sys.stdout.write(section)
        return
    text = open(out).read() if os.path.exists(out) else "# Benchmarks\n"
    kind = " ".join(end.split(" ")[:2])  # "<!-- tasks:end"
    if begin in text and end in text:
        start, stop = text.index(begin), text.index(end) + len(end)
        text = text[:start] + section.rstrip("\n") + text[stop:]
    elif kind in text:
        stop = text.rindex(kind)
        stop = text.index("-->", stop) + len("-->")
        text = text[:stop] + "\n\n" + section.rstrip("\n") + text[stop:]
    else:
        # After the title line, before any other section.
        head, _, rest = text.partition("\n")
        text = head + "\n\n" + section + ("\n" + rest.lstrip("\n") if rest.strip() else "")
    with open(out, "w") as handle:
        handle.write(text)


if __name__ == "__main__":
    main()
