#!/usr/bin/env python3
"""Turns bench/run's raw JMH and measurement output into bench/results/latest.json and a table."""
import argparse
import glob
import json
import os
import platform
import re
import subprocess

CONTENDERS = ("mcpx", "sdk", "raw")


def jmh_results(pattern):
    """{(benchmark, upstream): result} from the JMH JSON result files matching a glob."""
    out = {}
    for path in sorted(glob.glob(pattern)):
        with open(path) as f:
            text = f.read()
        if not text.strip():
            continue  # a run that failed before JMH wrote its results
        for run in json.loads(text):
            name = run["benchmark"].rsplit(".", 1)[1]
            upstream = run.get("params", {}).get("upstream", "fixed")
            out[(name, upstream)] = run
    return out


def histogram_p50(bins):
    """The median of a JMH histogram: [[value, count], ...]."""
    bins = sorted(bins)
    total = sum(count for _, count in bins)
    seen = 0
    for value, count in bins:
        seen += count
        if seen * 2 >= total:
            return value
    return None


def jmh_setup(run):
    """How long a run warmed up and measured, as JMH recorded it."""
    return (f"{run['warmupIterations']}x{run['warmupTime']} warmup, "
            f"{run['measurementIterations']}x{run['measurementTime']} measured, "
            + ("no fork" if run["forks"] == 0 else f"{run['forks']} fork{'' if run['forks'] == 1 else 's'}"))


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        jdk = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
        jdk = " / ".join(l.strip() for l in jdk[:2])
    except OSError:
        jdk = "unknown"
    return {"nproc": os.cpu_count(), "cpu": cpu, "jdk": jdk, "os": platform.platform()}


def ratio(a, b, digits=2):
    return round(a / b, digits) if a is not None and b else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True)
    parser.add_argument("--raw", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--load-before", default="")
    parser.add_argument("--load-after", default="")
    parser.add_argument("--seconds", type=int, default=0)
    args = parser.parse_args()

    latency = jmh_results(os.path.join(args.raw, "latency-*.json"))
    throughput = jmh_results(os.path.join(args.raw, "throughput-*.json"))
    with open(os.path.join(args.raw, "measurements.json")) as f:
        measured = json.load(f)

    def lat(results, name, upstream):
        run = results.get((name, upstream))
        if not run:
            return None
        pm = run["primaryMetric"]
        gc = run.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        # p50 of each measurement iteration: steady state shows as no trend
        per_iteration = [round(histogram_p50(it), 1) for fork in pm.get("rawDataHistogram", []) for it in fork]
        return {
            "p50_us": round(pm["scorePercentiles"]["50.0"], 1),
            "p99_us": round(pm["scorePercentiles"]["99.0"], 1),
            "mean_us": round(pm["score"], 1),
            "p50_per_iteration_us": per_iteration,
            "jvm_alloc_bytes_per_call": round(gc) if gc is not None else None,
            "jmh": jmh_setup(run),
        }

    def thr(results, name, upstream):
        run = results.get((name, upstream))
        if not run:
            return None
        pm = run["primaryMetric"]
        error = pm["scoreError"]  # "NaN" (a string) when JMH has too few iterations for it
        return {"ops_per_s": round(pm["score"]),
                "error": round(error) if isinstance(error, (int, float)) and error == error else None,
                "ops_per_s_per_iteration": [round(v) for fork in pm.get("rawData", []) for v in fork],
                "jmh": jmh_setup(run)}

    table = {}
    for upstream in ("fixed", "sdk"):
        for name in CONTENDERS:
            table[f"{upstream}/{name}"] = {"latency": lat(latency, name, upstream),
                                           "throughput_16_threads": thr(throughput, name, upstream)}
    client_side = measured.get("client_side_per_call_fixed", {})
    for key, row in table.items():
        upstream, name = key.split("/")
        if upstream == "fixed" and name in client_side:
            row["client_side_alloc_bytes_per_call"] = client_side[name]["alloc_bytes_per_call"]
            row["threads_started_per_call"] = client_side[name]["threads_started_per_call"]

    def p50(key):
        row = table.get(key) or {}
        return (row.get("latency") or {}).get("p50_us")

    def ops(key):
        row = table.get(key) or {}
        return (row.get("throughput_16_threads") or {}).get("ops_per_s")

    recovery = measured["recovery"]["fixed/mcpx"]
    sdk_recovery = measured["recovery"].get("sdk/mcpx", {})
    storm = measured["storm"]["fixed/mcpx"]
    heap = measured["idle_heap"]
    result = {
        "ratio_p50_vs_raw": ratio(p50("fixed/mcpx"), p50("fixed/raw")),
        "ratio_throughput_vs_sdk": ratio(ops("fixed/mcpx"), ops("fixed/sdk")),
        "alloc_bytes_per_call": client_side.get("mcpx", {}).get("alloc_bytes_per_call"),
        "recovery_multiple_of_call": recovery["recovery_multiple_of_call"],
        # the same four exchanges on raw HTTP, in the same loop: the limit of a legacy recovery
        "recovery_floor_multiple_of_call": recovery.get("recovery_floor_multiple_of_call"),
        "initialize_per_storm": storm["initialize_per_storm_max"],
        "idle_client_retained_bytes": heap.get("mcpx", {}).get("retained_bytes_per_client"),
        "on_sdk_server": {
            "ratio_p50_vs_raw": ratio(p50("sdk/mcpx"), p50("sdk/raw")),
            "ratio_throughput_vs_sdk": ratio(ops("sdk/mcpx"), ops("sdk/sdk")),
            "recovery_multiple_of_call": sdk_recovery.get("recovery_multiple_of_call"),
            "recovery_floor_multiple_of_call": sdk_recovery.get("recovery_floor_multiple_of_call"),
            "initialize_per_storm": measured["storm"].get("sdk/mcpx", {}).get("initialize_per_storm_max"),
        },
        "ratio_p50_vs_sdk": ratio(p50("fixed/mcpx"), p50("fixed/sdk")),
    }
    # Spring AI (SpringAiCallbackBenchmark): mcpx's ToolCallback, McpClient.callTool, and Spring AI's
    # own SyncMcpToolCallback over the SDK client, on the fixed upstream
    spring_ai = {name: lat(latency, name, "fixed") for name in ("mcpxCallback", "mcpxClient", "sdkCallback")}

    def spring_ai_p50(name):
        return (spring_ai.get(name) or {}).get("p50_us")

    result["ratio_spring_ai_callback_vs_mcpx_client"] = ratio(spring_ai_p50("mcpxCallback"),
                                                              spring_ai_p50("mcpxClient"))
    result["ratio_spring_ai_callback_vs_sdk_callback"] = ratio(spring_ai_p50("mcpxCallback"),
                                                               spring_ai_p50("sdkCallback"))
    result["spring_ai"] = spring_ai
    targets = {
        "p50 within 1.15x raw": (result["ratio_p50_vs_raw"], lambda v: v is not None and v <= 1.15, {}),
        "throughput at 16 threads >= 1.2x SDK": (
            result["ratio_throughput_vs_sdk"], lambda v: v is not None and v >= 1.2, {}),
        "one initialize per storm": (result["initialize_per_storm"], lambda v: v == 1, {}),
        "recovery within 4x a normal call": (
            result["recovery_multiple_of_call"], lambda v: v is not None and v <= 4.0,
            {"recovery_floor_multiple_of_call": result["recovery_floor_multiple_of_call"]}),
        "allocation per call reported": (result["alloc_bytes_per_call"], lambda v: v is not None, {}),
        "Spring AI callback p50 within 1.05x McpClient.callTool": (
            result["ratio_spring_ai_callback_vs_mcpx_client"], lambda v: v is not None and v <= 1.05,
            {"ratio_spring_ai_callback_vs_sdk_callback": result["ratio_spring_ai_callback_vs_sdk_callback"]}),
    }
    result["targets"] = {name: {"value": value, "met": check(value), **context}
                         for name, (value, check, context) in targets.items()}
    result["results"] = table
    result["recovery"] = measured["recovery"]
    result["storm"] = measured["storm"]
    result["idle_heap"] = heap
    result["run"] = {"mode": args.mode, "seconds": args.seconds, "load_average_before": args.load_before,
                     "load_average_after": args.load_after, "machine": machine()}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")

    def show(value):
        return "-" if value is None else value

    print()
    print(f"{'upstream/contender':<20}{'p50 us':>9}{'p99 us':>9}{'ops/s@16':>10}{'B/call':>8}{'thr/call':>9}"
          "   p50 per iteration us | ops/s per iteration")
    for key, row in table.items():
        l = row.get("latency") or {}
        t = row.get("throughput_16_threads") or {}
        print(f"{key:<20}{show(l.get('p50_us')):>9}{show(l.get('p99_us')):>9}{show(t.get('ops_per_s')):>10}"
              f"{show(row.get('client_side_alloc_bytes_per_call')):>8}{show(row.get('threads_started_per_call')):>9}"
              f"   {l.get('p50_per_iteration_us', '-')} | {t.get('ops_per_s_per_iteration', '-')}")
    print()
    print(f"recovery on the fixed upstream: p50 {recovery['recovery_p50_us']} us, normal call "
          f"{recovery['normal_call_p50_us']} us, floor (raw HTTP, same 4 exchanges) "
          f"{show(recovery.get('recovery_floor_p50_us'))} us = {show(result['recovery_floor_multiple_of_call'])}x a call; "
          f"mcpx recovery = {show(recovery.get('recovery_multiple_of_floor'))}x the floor")
    for name, verdict in result["targets"].items():
        context = "".join(f"; {k} {v}" for k, v in verdict.items() if k not in ("value", "met"))
        print(f"{'MET   ' if verdict['met'] else 'MISSED'} {name}: {verdict['value']}{context}")
    print(f"idle client retained: {result['idle_client_retained_bytes']} B; "
          f"mcpx p50 vs SDK: {result['ratio_p50_vs_sdk']}x; on the SDK server: {result['on_sdk_server']}")
    print(f"wrote {args.out} ({args.mode} mode, {args.seconds} s, load {args.load_before} -> {args.load_after})")


if __name__ == "__main__":
    main()
