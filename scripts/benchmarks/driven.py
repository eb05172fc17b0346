"""Times our engine call for call against another runtime in the same run, through the `--driven`
mode of `vision-tasks bench-model` and `vision-tasks bench TASK` (Sources/VisionTasksCLI/Tasks/
DrivenBench.swift): the driver starts our command, waits for its ready line, then asks it for calls
in turn with the other runtime's own calls.

Why: on a shared machine a core's speed changes in phases of a fraction of a second to a few
seconds. Two runtimes timed one after the other, a few seconds each, see different phases; a pair
of adjacent calls sees the same. Each turn makes two calls and times the second, so that the timed
call follows a call of the same runtime (its data in cache, its threads awake), not the other's.
"""
import json
import statistics
import subprocess


class Driven:
    """One `vision-tasks … --driven` process."""

    def __init__(self, command):
        self.command = command
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{' '.join(command)} ended before its ready line (exit {self.process.wait()})")
        self.ready = json.loads(line)

    def turn(self):
        """One turn: two calls in one request (no round trip between them), the second timed."""
        return self.calls(2)[1]

    def calls(self, count):
        """The milliseconds of `count` calls made now."""
        self.process.stdin.write(f"{count}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{' '.join(self.command)} ended (exit {self.process.wait()})")
        return json.loads(line)

    def close(self):
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        if self.process.wait() != 0:
            raise RuntimeError(f"{' '.join(self.command)} exited with {self.process.returncode}")


def bench_model(binary, model, member=None, threads=1, isa=None):
    """A `bench-model MODEL --threads N --driven` process of `binary` (with `--member`, `--isa`
    where given), started and ready."""
    command = [binary, "bench-model", model, "--threads", str(threads), "--driven"]
    if member:
        command += ["--member", member]
    if isa:
        command += ["--isa", isa]
    return Driven(command)


def alternate(sides, iterations):
    """`sides` maps a name to a turn: a function that makes two calls and returns the second's
    milliseconds (`Driven.turn` for ours). Each of `iterations` steps gives every side one turn,
    in order. Returns each side's list of timed milliseconds, step by step."""
    times = {name: [] for name in sides}
    for _ in range(iterations):
        for name, turn in sides.items():
            times[name].append(turn())
    return times


def summary(samples):
    return {"medianMs": round(statistics.median(samples), 3), "minMs": round(min(samples), 3),
            "maxMs": round(max(samples), 3)}


def pair_ratio(times, reference):
    """Median of the per-step ratios times[i] / reference[i]."""
    return round(statistics.median(a / b for a, b in zip(times, reference)), 4)
