#!/usr/bin/env python3
"""Turns bench/run's raw output (interleaved rounds, measurements, many upstreams, virtual
threads) into bench/results/latest.json, a table and the verdict per target.

Every ratio is taken within one round (the contenders of a round ran back to back, each in its
warm JVM) and reported as the median over the rounds, with the per-round list beside it
(`<key>_per_round`) and its spread (`<key>_spread`: min and max). Each run's headline ratios are
also appended to bench/results/runs.jsonl with the commit they measured, so that repeated runs of
one commit can be compared (`agreement` below)."""
import argparse
import json
import os
import platform
import statistics
import subprocess

KEYS = ("ratio_p50_vs_raw", "ratio_throughput_vs_raw", "ratio_throughput_vs_sdk", "ratio_cpu_per_call_vs_raw",
        "ratio_alloc_per_call_vs_raw", "recovery_multiple_of_floor")


def load(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        text = f.read().strip()
    return json.loads(text) if text else None


def lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip().startswith("{")]


def med(values):
    values = [v for v in values if v is not None]
    return round(statistics.median(values), 3) if values else None


def spread(values):
    values = [v for v in values if v is not None]
    return [round(min(values), 3), round(max(values), 3)] if values else None


def ratio_per_round(rounds, a, b, field, invert=False):
    """a's field over b's field in each round (b's over a's when inverted)."""
    out = []
    for x, y in zip(rounds.get(a, []), rounds.get(b, [])):
        num, den = (y[field], x[field]) if invert else (x[field], y[field])
        out.append(round(num / den, 3) if num is not None and den else None)
    return out


def put(target, key, per_round):
    target[key] = med(per_round)
    target[key + "_per_round"] = per_round
    target[key + "_spread"] = spread(per_round)


def contender_medians(rounds):
    fields = ("p50_us", "p99_us", "ops_per_s", "caller_cpu_us_per_call", "cpu_us_per_call",
              "caller_alloc_bytes_per_call", "alloc_bytes_per_call", "threads_started_per_call", "failed_calls")
    return {name: {f: med([r.get(f) for r in per]) for f in fields} for name, per in rounds.items()}


def call_ratios(data):
    """The ratios of one upstream's rounds, and the names of the SDK contenders."""
    rounds = data["per_round"]
    sdks = sorted((n for n in rounds if n.startswith("sdk")), key=lambda n: [int(p) for p in n[4:].split(".")])
    out = {}
    put(out, "ratio_p50_vs_raw", ratio_per_round(rounds, "mcpx", "raw", "p50_us"))
    put(out, "ratio_p99_vs_raw", ratio_per_round(rounds, "mcpx", "raw", "p99_us"))
    put(out, "ratio_throughput_vs_raw", ratio_per_round(rounds, "mcpx", "raw", "ops_per_s"))
    put(out, "ratio_cpu_per_call_vs_raw", ratio_per_round(rounds, "mcpx", "raw", "caller_cpu_us_per_call"))
    put(out, "ratio_cpu_all_threads_per_call_vs_raw", ratio_per_round(rounds, "mcpx", "raw", "cpu_us_per_call"))
    put(out, "ratio_alloc_per_call_vs_raw", ratio_per_round(rounds, "mcpx", "raw", "alloc_bytes_per_call"))
    if sdks:
        # the headline is against the SDK's newest release; every release is kept beside it
        put(out, "ratio_throughput_vs_sdk", ratio_per_round(rounds, "mcpx", sdks[-1], "ops_per_s"))
        put(out, "ratio_p50_vs_sdk", ratio_per_round(rounds, "mcpx", sdks[-1], "p50_us"))
        out["sdk_compared"] = sdks[-1]
        out["vs_each_sdk"] = {}
        for sdk in sdks:
            each = {}
            put(each, "ratio_throughput_vs_sdk", ratio_per_round(rounds, "mcpx", sdk, "ops_per_s"))
            put(each, "ratio_p50_vs_sdk", ratio_per_round(rounds, "mcpx", sdk, "p50_us"))
            out["vs_each_sdk"][sdk] = each
    out["contenders"] = contender_medians(rounds)
    out["rounds"] = data["rounds"]
    out["order"] = data["order"]
    out["seconds_per_round_and_contender"] = data["latency_seconds"] + data["throughput_seconds"]
    return out


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), cpu)
    except OSError:
        pass
    try:
        jdk = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0].strip()
    except (OSError, IndexError):
        jdk = "unknown"
    return {"nproc": os.cpu_count(), "cpu": cpu, "jdk": jdk, "os": platform.platform()}


def commit():
    try:
        # the last commit that changed what is measured: runs stay comparable across docs commits
        head = subprocess.run(["git", "log", "-1", "--format=%h", "--", "mcpx-spring-boot-autoconfigure",
                               "mcpx-benchmarks", "bench/run", "pom.xml"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "mcpx-*"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except OSError:
        return "unknown"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True)
    parser.add_argument("--raw", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--load-before", default="")
    parser.add_argument("--load-after", default="")
    parser.add_argument("--seconds", type=int, default=0)
    args = parser.parse_args()

    latest = {"mode": args.mode, "commit": commit(), "machine": machine(), "load_before": args.load_before,
              "load_after": args.load_after, "seconds": args.seconds}
    fixed = load(os.path.join(args.raw, "rounds-fixed.json"))
    sdkserver = load(os.path.join(args.raw, "rounds-sdk.json"))
    measurements = load(os.path.join(args.raw, "measurements.json")) or {}
    if fixed:
        for key, value in call_ratios(fixed).items():
            latest[key] = value
    recovery = measurements.get("recovery", {})
    storm = measurements.get("storm", {})
    fixed_recovery = recovery.get("fixed/mcpx", {})
    latest["recovery_multiple_of_floor"] = fixed_recovery.get("recovery_multiple_of_floor")
    latest["recovery_multiple_of_floor_per_round"] = fixed_recovery.get("recovery_multiple_of_floor_per_round")
    latest["recovery_multiple_of_floor_spread"] = spread(fixed_recovery.get("recovery_multiple_of_floor_per_round") or [])
    latest["recovery_floor_multiple_of_call"] = fixed_recovery.get("recovery_floor_multiple_of_call")
    storms = storm.get("fixed/mcpx", {}).get("initialize_per_storm", [])
    latest["initialize_per_storm"] = max(storms) if storms else None
    latest["initialize_per_storm_per_round"] = storms
    on_sdk = {}
    if sdkserver:
        on_sdk = call_ratios(sdkserver)
    sdk_recovery = recovery.get("sdk/mcpx", {})
    on_sdk["recovery_multiple_of_floor"] = sdk_recovery.get("recovery_multiple_of_floor")
    on_sdk["recovery_multiple_of_floor_per_round"] = sdk_recovery.get("recovery_multiple_of_floor_per_round")
    sdk_storms = storm.get("sdk/mcpx", {}).get("initialize_per_storm", [])
    on_sdk["initialize_per_storm"] = max(sdk_storms) if sdk_storms else None
    on_sdk["initialize_per_storm_per_round"] = sdk_storms
    latest["on_sdk_server"] = on_sdk
    latest["sdk_client_after_expiry"] = {k: v for k, v in recovery.items() if k.endswith("/sdk")}
    latest["sdk_client_storms"] = {k: v for k, v in storm.items() if k.endswith("/sdk")}
    latest["idle_heap_one_upstream_each"] = measurements.get("idle_heap")

    many = {}
    starts = lines(os.path.join(args.raw, "many-start.jsonl"))
    zero = [s["start_ms"] for s in starts if s["upstreams"] == 0]
    full = [s["start_ms"] for s in starts if s["upstreams"] != 0]
    if zero and full:
        put(many, "start_ratio_200_vs_0", [round(b / a, 3) for a, b in zip(zero, full)])
        many["start_ms_0"] = zero
        many["start_ms_200"] = full
        # mcpx's own share: each start less the time Boot spent binding mcpx's properties
        zero_bind = [s.get("mcpx_binding_ms") for s in starts if s["upstreams"] == 0]
        full_bind = [s.get("mcpx_binding_ms") for s in starts if s["upstreams"] != 0]
        if None not in zero_bind and None not in full_bind:
            put(many, "start_ratio_200_vs_0_less_binding",
                [round((b - bb) / (a - ab), 3) for a, ab, b, bb in zip(zero, zero_bind, full, full_bind)])
            many["mcpx_binding_ms_0"] = zero_bind
            many["mcpx_binding_ms_200"] = full_bind
            many["mcpx_clients_ms_0"] = [s.get("mcpx_clients_ms") for s in starts if s["upstreams"] == 0]
            many["mcpx_clients_ms_200"] = [s.get("mcpx_clients_ms") for s in starts if s["upstreams"] != 0]
    idle = {i["upstreams"]: i for i in lines(os.path.join(args.raw, "many-idle.jsonl"))}
    if 2 in idle and 200 in idle:
        many["threads_for_200_idle"] = idle[200]["threads_idle"]
        many["threads_for_2_idle"] = idle[2]["threads_idle"]
        many["threads_for_200_configured"] = idle[200]["threads_configured"]
        # idle: after the shared JDK client's idle release; recently used: 6 s after the calls,
        # its connections still pooled
        many["retained_bytes_per_idle_upstream"] = idle[200]["retained_bytes_per_idle_upstream"]
        many["retained_bytes_per_recently_used_upstream"] = idle[200].get("retained_bytes_per_recently_used_upstream")
        many["threads_for_200_after_release"] = idle[200].get("threads_after_release")
        many["threads_for_2_after_release"] = idle[2].get("threads_after_release")
        many["idle_release_after_ms"] = idle[200].get("idle_release_after_ms")
        many["retained_bytes_per_configured_upstream"] = idle[200]["retained_bytes_per_configured_upstream"]
        many["first_call_p50_us"] = idle[200]["first_call_p50_us"]
        many["second_call_p50_us"] = idle[200]["second_call_p50_us"]
        latest["first_call_multiple_of_floor"] = {}
        for era in ("legacy", "modern"):
            many["first_call_floor_p50_us_" + era] = idle[200].get("first_call_floor_p50_us_" + era)
            many["first_call_paired_p50_us_" + era] = idle[200].get("first_call_paired_p50_us_" + era)
            latest["first_call_multiple_of_floor"][era] = idle[200].get("first_call_multiple_of_floor_" + era)
        many["jdk_http_clients_built_for_200"] = idle[200]["jdk_http_clients_built"]
        many["detail"] = idle
    churn = lines(os.path.join(args.raw, "many-churn.jsonl"))
    if churn:
        many["churn_1000"] = {k: churn[0].get(k) for k in ("add_p50_us", "add_max_us", "retained_bytes_after_churn",
                                                           "new_threads_after_churn", "live_upstreams_after_churn")}
    latest["many_upstreams"] = many
    latest["virtual_threads"] = load(os.path.join(args.raw, "vthreads.json"))
    latest["stdio"] = load(os.path.join(args.raw, "stdio.json"))
    latest["tasks"] = load(os.path.join(args.raw, "tasks.json"))
    # Spring AI (SpringAiCallbackBenchmark, JMH): mcpx's ToolCallback, McpClient.callTool, and
    # Spring AI's own SyncMcpToolCallback over the SDK client, on the fixed upstream
    spring_ai = {}
    for run in load(os.path.join(args.raw, "latency-springai.json")) or []:
        name = run["benchmark"].rsplit(".", 1)[-1]
        spring_ai[name] = {"p50_us": round(run["primaryMetric"]["scorePercentiles"]["50.0"], 1),
                           "p99_us": round(run["primaryMetric"]["scorePercentiles"]["99.0"], 1)}

    def spring_ai_ratio(a, b):
        x, y = (spring_ai.get(a) or {}).get("p50_us"), (spring_ai.get(b) or {}).get("p50_us")
        return round(x / y, 3) if x and y else None

    latest["spring_ai"] = spring_ai
    latest["ratio_spring_ai_callback_vs_mcpx_client"] = spring_ai_ratio("mcpxCallback", "mcpxClient")
    latest["ratio_spring_ai_callback_vs_sdk_callback"] = spring_ai_ratio("mcpxCallback", "sdkCallback")

    targets = []

    def target(name, value, limit, ok):
        targets.append({"target": name, "value": value, "limit": limit,
                        "met": (ok(value) if value is not None else None)})

    target("tools/call p50 within 1.10x raw (fixed upstream)", latest.get("ratio_p50_vs_raw"), 1.10,
           lambda v: v <= 1.10)
    target("tools/call p50 within 1.10x raw (SDK server)", on_sdk.get("ratio_p50_vs_raw"), 1.10, lambda v: v <= 1.10)
    target("throughput at 16 threads >= 0.85x raw", latest.get("ratio_throughput_vs_raw"), 0.85, lambda v: v >= 0.85)
    target("caller CPU per call within 1.5x raw", latest.get("ratio_cpu_per_call_vs_raw"), 1.5, lambda v: v <= 1.5)
    target("allocation per call within 1.3x raw", latest.get("ratio_alloc_per_call_vs_raw"), 1.3, lambda v: v <= 1.3)
    target("recovery within 1.15x the four-exchange floor (fixed)", latest.get("recovery_multiple_of_floor"), 1.15,
           lambda v: v <= 1.15)
    target("recovery within 1.15x the four-exchange floor (SDK server)", on_sdk.get("recovery_multiple_of_floor"),
           1.15, lambda v: v <= 1.15)
    target("one initialize per storm (both upstreams)",
           max([v for v in (latest.get("initialize_per_storm"), on_sdk.get("initialize_per_storm")) if v is not None],
               default=None), 1, lambda v: v == 1)
    target("threads of 200 idle upstreams within those of 2", many.get("threads_for_200_idle"),
           many.get("threads_for_2_idle"), lambda v: v <= many.get("threads_for_2_idle"))
    target("retained heap per idle upstream <= 16 KB", many.get("retained_bytes_per_idle_upstream"), 16 * 1024,
           lambda v: v <= 16 * 1024)
    target("start with 200 upstreams within 1.1x of none, less Boot's binding of mcpx.*",
           many.get("start_ratio_200_vs_0_less_binding"), 1.1, lambda v: v <= 1.1)
    for era in ("legacy", "modern"):
        target(f"first call within 1.15x its floor ({era} era)",
               (latest.get("first_call_multiple_of_floor") or {}).get(era), 1.15, lambda v: v <= 1.15)
    vt = latest["virtual_threads"] or {}
    target("no carrier pinning on virtual threads (jdk.VirtualThreadPinned)",
           vt.get("pinned_events"), 0, lambda v: v == 0)
    target("1,000 callers on virtual threads >= 0.85x raw's calls/s", vt.get("ratio_throughput_vs_raw"), 0.85,
           lambda v: v >= 0.85)
    stdio = latest["stdio"] or {}
    target("stdio tools/call p50 within 1.3x a raw pipe", stdio.get("ratio_p50_vs_raw_pipe"), 1.3, lambda v: v <= 1.3)
    target("stdio throughput at 16 callers >= 0.8x a pipelined raw pipe", stdio.get("ratio_throughput_vs_raw_pipe"),
           0.8, lambda v: v >= 0.8)
    target("throughput at 16 threads >= 1.2x the SDK client (last round's target)",
           latest.get("ratio_throughput_vs_sdk"), 1.2, lambda v: v >= 1.2)
    target("Spring AI callback p50 within 1.05x McpClient.callTool",
           latest.get("ratio_spring_ai_callback_vs_mcpx_client"), 1.05, lambda v: v <= 1.05)
    latest["targets"] = targets

    history = os.path.join(os.path.dirname(args.out), "runs.jsonl")
    if args.mode == "smoke":
        history = os.path.join(args.raw, "runs-smoke.jsonl")
    record = {"commit": latest["commit"], "mode": args.mode, "load_before": args.load_before,
              "load_after": args.load_after}
    record.update({k: latest.get(k) for k in KEYS})
    record["on_sdk_server.ratio_p50_vs_raw"] = on_sdk.get("ratio_p50_vs_raw")
    record["many_upstreams.start_ratio_200_vs_0"] = many.get("start_ratio_200_vs_0")
    record["many_upstreams.start_ratio_200_vs_0_less_binding"] = many.get("start_ratio_200_vs_0_less_binding")
    for era in ("legacy", "modern"):
        record["first_call_multiple_of_floor." + era] = (latest.get("first_call_multiple_of_floor") or {}).get(era)
    record["virtual_threads.ratio_throughput_vs_raw"] = vt.get("ratio_throughput_vs_raw")
    record["stdio.ratio_p50_vs_raw_pipe"] = stdio.get("ratio_p50_vs_raw_pipe")
    record["stdio.ratio_throughput_vs_raw_pipe"] = stdio.get("ratio_throughput_vs_raw_pipe")
    with open(history, "a") as f:
        f.write(json.dumps(record) + "\n")
    same = [r for r in lines(history) if r["commit"] == record["commit"] and r["mode"] == args.mode][-3:]
    agreement = {}
    if len(same) >= 2:
        for key in list(KEYS) + ["on_sdk_server.ratio_p50_vs_raw", "many_upstreams.start_ratio_200_vs_0",
                                 "virtual_threads.ratio_throughput_vs_raw", "stdio.ratio_p50_vs_raw_pipe",
                                 "stdio.ratio_throughput_vs_raw_pipe",
                                 "many_upstreams.start_ratio_200_vs_0_less_binding",
                                 "first_call_multiple_of_floor.legacy", "first_call_multiple_of_floor.modern"]:
            values = [r.get(key) for r in same if r.get(key) is not None]
            if len(values) >= 2:
                agreement[key] = {"runs": values,
                                  "max_over_min": round(max(values) / min(values), 3) if min(values) else None}
    latest["agreement_last_runs_of_this_commit"] = {"runs": len(same), "ratios": agreement}

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(latest, f, indent=2)
        f.write("\n")

    print()
    print(f"commit {latest['commit']}, {args.mode} mode, load {args.load_before} -> {args.load_after}, "
          f"{args.seconds} s")
    for name, data in (("fixed upstream", fixed and latest), ("SDK server", sdkserver and on_sdk)):
        if not data:
            continue
        print(f"\n{name}: medians over {data['rounds']} rounds (order {', '.join(data['order'])})")
        print(f"  {'contender':<12} {'p50 us':>9} {'p99 us':>9} {'ops/s':>9} {'caller CPU us':>14} "
              f"{'all CPU us':>11} {'B/call':>8} {'threads/call':>13}")
        for who, c in data["contenders"].items():
            print(f"  {who:<12} {c['p50_us'] or 0:>9.1f} {c['p99_us'] or 0:>9.1f} {c['ops_per_s'] or 0:>9.0f} "
                  f"{c['caller_cpu_us_per_call'] or 0:>14.1f} {c['cpu_us_per_call'] or 0:>11.1f} "
                  f"{c['alloc_bytes_per_call'] or 0:>8.0f} {c['threads_started_per_call'] or 0:>13.2f}")
        for key in ("ratio_p50_vs_raw", "ratio_throughput_vs_raw", "ratio_cpu_per_call_vs_raw",
                    "ratio_alloc_per_call_vs_raw", "ratio_throughput_vs_sdk"):
            if key in data:
                print(f"  {key:<32} {data[key]}  rounds {data[key + '_per_round']}")
    print()
    if many:
        print(f"many upstreams: start 200 vs 0 = {many.get('start_ratio_200_vs_0')} "
              f"(rounds {many.get('start_ratio_200_vs_0_per_round')}); threads idle 200: "
              f"{many.get('threads_for_200_idle')}, 2: {many.get('threads_for_2_idle')}; retained per idle upstream "
              f"{many.get('retained_bytes_per_idle_upstream')} B (6 s after a call: "
              f"{many.get('retained_bytes_per_recently_used_upstream')} B; configured only: "
              f"{many.get('retained_bytes_per_configured_upstream')} B); first call p50 {many.get('first_call_p50_us')} us")
        print(f"  start less Boot's binding of mcpx.*: {many.get('start_ratio_200_vs_0_less_binding')} "
              f"(binding {many.get('mcpx_binding_ms_200')} ms with 200; building the clients, binding aside, "
              f"{many.get('mcpx_clients_ms_200')} ms); first call vs its floor "
              f"{latest.get('first_call_multiple_of_floor')} (floor p50 legacy "
              f"{many.get('first_call_floor_p50_us_legacy')} us, modern {many.get('first_call_floor_p50_us_modern')} us)")
    if stdio:
        print(f"stdio: p50 mcpx {(stdio.get('mcpx') or {}).get('p50_us')} us, raw pipe "
              f"{(stdio.get('raw') or {}).get('p50_us')} us, SDK {(stdio.get('sdk') or {}).get('p50_us')} us; "
              f"ratio p50 {stdio.get('ratio_p50_vs_raw_pipe')} (rounds {stdio.get('ratio_p50_vs_raw_pipe_per_round')}), "
              f"throughput {stdio.get('ratio_throughput_vs_raw_pipe')} "
              f"(rounds {stdio.get('ratio_throughput_vs_raw_pipe_per_round')})")
    tasks = latest.get("tasks") or {}
    if tasks:
        print(f"tasks: a task-backed call p50 {tasks.get('task_p50_us')} us against {tasks.get('direct_p50_us')} us "
              f"answered directly (+{tasks.get('task_overhead_p50_ms')} ms, the poll floor; rounds "
              f"{tasks.get('ratio_p50_task_vs_direct_per_round')}), caller CPU per poll "
              f"{tasks.get('caller_cpu_us_per_poll')} us; {tasks.get('in_flight')} tasks in flight: "
              f"{tasks.get('in_flight_client_threads_added')} threads added ({tasks.get('in_flight_polling_threads')} "
              f"polling), {tasks.get('in_flight_heap_kb_per_task')} KB heap per task")
    if vt:
        print(f"virtual threads (Java {vt.get('java')}, {vt.get('callers')} callers): {json.dumps(vt)}")
    print("\nverdict:")
    for t in targets:
        verdict = {True: "met", False: "MISSED", None: "not measured"}[t["met"]]
        print(f"  {verdict:<13} {t['target']}: {t['value']} (limit {t['limit']})")
    if agreement:
        print(f"\nagreement over the last {len(same)} runs of {record['commit']} (max/min per ratio):")
        for key, a in agreement.items():
            print(f"  {key:<40} {a['max_over_min']}  {a['runs']}")


if __name__ == "__main__":
    main()
