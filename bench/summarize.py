#!/usr/bin/env python3
"""Turns bench/run's raw JMH and measurement output into bench/results/latest.json and a table."""
import argparse
import json
import os
import platform
import re
import subprocess

CONTENDERS = ("mcpx", "sdk", "raw")


def jmh_results(path):
    """{(benchmark, upstream): result} from a JMH JSON result file."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        runs = json.load(f)
    out = {}
    for run in runs:
        name = run["benchmark"].rsplit(".", 1)[1]
        upstream = run.get("params", {}).get("upstream", "fixed")
        out[(name, upstream)] = run
    return out


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

    latency = jmh_results(os.path.join(args.raw, "latency.json"))
    throughput = jmh_results(os.path.join(args.raw, "throughput.json"))
    diag_latency = jmh_results(os.path.join(args.raw, "diagnostic-latency.json"))
    diag_throughput = jmh_results(os.path.join(args.raw, "diagnostic-throughput.json"))
    with open(os.path.join(args.raw, "measurements.json")) as f:
        measured = json.load(f)

    def lat(results, name, upstream):
        run = results.get((name, upstream))
        if not run:
            return None
        pm = run["primaryMetric"]
        gc = run.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        return {
            "p50_us": round(pm["scorePercentiles"]["50.0"], 1),
            "p99_us": round(pm["scorePercentiles"]["99.0"], 1),
            "mean_us": round(pm["score"], 1),
            "jvm_alloc_bytes_per_call": round(gc) if gc is not None else None,
        }

    def thr(results, name, upstream):
        run = results.get((name, upstream))
        if not run:
            return None
        pm = run["primaryMetric"]
        return {"ops_per_s": round(pm["score"]), "error": round(pm["scoreError"]) if pm["scoreError"] == pm["scoreError"] else None}

    table = {}
    for upstream in ("fixed", "sdk"):
        for name in CONTENDERS:
            table[f"{upstream}/{name}"] = {"latency": lat(latency, name, upstream),
                                           "throughput_16_threads": thr(throughput, name, upstream)}
    table["fixed/spring (diagnostic: mcpx's HTTP layer alone)"] = {
        "latency": lat(diag_latency, "spring", "fixed"),
        "throughput_16_threads": thr(diag_throughput, "spring", "fixed")}
    table["fixed/mcpx-sync (diagnostic: mcpx on a thread-free HTTP layer)"] = {
        "latency": lat(diag_latency, "mcpx_sync", "fixed"),
        "throughput_16_threads": thr(diag_throughput, "mcpx_sync", "fixed")}
    client_side = measured.get("client_side_per_call_fixed", {})
    for key in list(table):
        name = key.split(" ")[0].split("/")[1]
        if not key.startswith("fixed/"):
            continue
        row = table[key]
        if name in client_side:
            row["client_side_alloc_bytes_per_call"] = client_side[name]["alloc_bytes_per_call"]
            row["threads_started_per_call"] = client_side[name]["threads_started_per_call"]

    def p50(key):
        row = table.get(key) or {}
        return (row.get("latency") or {}).get("p50_us")

    def ops(key):
        row = table.get(key) or {}
        return (row.get("throughput_16_threads") or {}).get("ops_per_s")

    recovery = measured["recovery"]["fixed/mcpx"]
    storm = measured["storm"]["fixed/mcpx"]
    heap = measured["idle_heap"]
    result = {
        "ratio_p50_vs_raw": ratio(p50("fixed/mcpx"), p50("fixed/raw")),
        "ratio_throughput_vs_sdk": ratio(ops("fixed/mcpx"), ops("fixed/sdk")),
        "alloc_bytes_per_call": client_side.get("mcpx", {}).get("alloc_bytes_per_call"),
        "recovery_multiple_of_call": recovery["recovery_multiple_of_call"],
        "initialize_per_storm": storm["initialize_per_storm_max"],
        "idle_client_retained_bytes": heap.get("mcpx", {}).get("retained_bytes_per_client"),
        "on_sdk_server": {
            "ratio_p50_vs_raw": ratio(p50("sdk/mcpx"), p50("sdk/raw")),
            "ratio_throughput_vs_sdk": ratio(ops("sdk/mcpx"), ops("sdk/sdk")),
            "recovery_multiple_of_call": measured["recovery"].get("sdk/mcpx", {}).get("recovery_multiple_of_call"),
            "initialize_per_storm": measured["storm"].get("sdk/mcpx", {}).get("initialize_per_storm_max"),
        },
        "ratio_p50_vs_sdk": ratio(p50("fixed/mcpx"), p50("fixed/sdk")),
        "diagnostics": {
            "ratio_p50_spring_http_layer_vs_raw": ratio(p50("fixed/spring (diagnostic: mcpx's HTTP layer alone)"), p50("fixed/raw")),
            "ratio_p50_mcpx_sync_vs_raw": ratio(p50("fixed/mcpx-sync (diagnostic: mcpx on a thread-free HTTP layer)"), p50("fixed/raw")),
            "ratio_throughput_mcpx_sync_vs_sdk": ratio(ops("fixed/mcpx-sync (diagnostic: mcpx on a thread-free HTTP layer)"), ops("fixed/sdk")),
            "alloc_bytes_per_call_mcpx_sync": client_side.get("mcpx-sync", {}).get("alloc_bytes_per_call"),
        },
    }
    targets = {
        "p50 within 1.15x raw": (result["ratio_p50_vs_raw"], lambda v: v is not None and v <= 1.15),
        "throughput at 16 threads >= 1.2x SDK": (result["ratio_throughput_vs_sdk"], lambda v: v is not None and v >= 1.2),
        "one initialize per storm": (result["initialize_per_storm"], lambda v: v == 1),
        "recovery within 4x a normal call": (result["recovery_multiple_of_call"], lambda v: v is not None and v <= 4.0),
        "allocation per call reported": (result["alloc_bytes_per_call"], lambda v: v is not None),
    }
    result["targets"] = {name: {"value": value, "met": check(value)} for name, (value, check) in targets.items()}
    result["results"] = table
    result["recovery"] = measured["recovery"]
    result["storm"] = measured["storm"]
    result["idle_heap"] = heap
    result["run"] = {"mode": args.mode, "seconds": args.seconds, "load_average_before": args.load_before,
                     "load_average_after": args.load_after, "machine": machine()}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")

    print()
    print(f"{'upstream/contender':<24}{'p50 us':>10}{'p99 us':>10}{'ops/s@16':>11}{'B/call':>9}{'thr/call':>9}")
    for key, row in table.items():
        l = row.get("latency") or {}
        t = row.get("throughput_16_threads") or {}
        short = key.split(" ")[0]
        print(f"{short:<24}{l.get('p50_us', '-'):>10}{l.get('p99_us', '-'):>10}{t.get('ops_per_s', '-'):>11}"
              f"{row.get('client_side_alloc_bytes_per_call', '-'):>9}{row.get('threads_started_per_call', '-'):>9}")
    print()
    for name, verdict in result["targets"].items():
        print(f"{'MET   ' if verdict['met'] else 'MISSED'} {name}: {verdict['value']}")
    print(f"idle client retained: {result['idle_client_retained_bytes']} B; "
          f"mcpx p50 vs SDK: {result['ratio_p50_vs_sdk']}x; on the SDK server: {result['on_sdk_server']}")
    print(f"wrote {args.out} ({args.mode} mode, {args.seconds} s, load {args.load_before} -> {args.load_after})")


if __name__ == "__main__":
    main()
