"""Reading speed of the Python readers a user could pick instead of TrueTrack's, on the benchmark's own inputs.

Usage: python3 Benchmarks/peers/read_speed.py [DIR]   (DIR: where `make bench` wrote its inputs, default
$TMPDIR/truetrack-bench; needs fixes-1000000-g2.csv and fixes-1000000-g2.jsonl, written by `make bench`)

Prints rows per second, the median of 5 runs after one warm-up, for:
- pyarrow.csv.read_csv (multi-threaded, the default; and on one thread), the times parsed as timestamps;
- pyarrow.json.read_json with the same explicit schema (multi-threaded and on one thread);
- orjson.loads per line (parsing only: no validation, no fix built).
TrueTrack's figures are `make bench`'s (one thread, each fix validated and built). Not in CI's path.
"""
import os
import statistics
import sys
import tempfile
import time

import orjson
import pyarrow as pa
import pyarrow.csv as pc
import pyarrow.json as pj

folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tempfile.gettempdir(), "truetrack-bench")
csv_path = os.path.join(folder, "fixes-1000000-g2.csv")
jsonl_path = os.path.join(folder, "fixes-1000000-g2.jsonl")
schema = pa.schema([
    ("time", pa.timestamp("ms", tz="UTC")), ("latitude", pa.float64()), ("longitude", pa.float64()),
    ("accuracy_m", pa.float64()), ("speed_mps", pa.float64()),
])


def median_rate(read, runs=5):
    rows = read()  # warm-up (page cache, imports)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        rows = read()
        times.append(time.perf_counter() - start)
    return rows / statistics.median(times)


def pyarrow_csv(threads):
    options = pc.ConvertOptions(column_types={f.name: f.type for f in schema})
    return lambda: pc.read_csv(csv_path, read_options=pc.ReadOptions(use_threads=threads),
                               convert_options=options).num_rows


def pyarrow_json(threads):
    return lambda: pj.read_json(jsonl_path, read_options=pj.ReadOptions(use_threads=threads),
                                parse_options=pj.ParseOptions(explicit_schema=schema)).num_rows


def orjson_lines():
    rows = 0
    with open(jsonl_path, "rb") as f:
        for line in f:
            orjson.loads(line)
            rows += 1
    return rows


for name, read in [
    ("pyarrow.csv (threads)", pyarrow_csv(True)), ("pyarrow.csv (1 thread)", pyarrow_csv(False)),
    ("pyarrow.json (threads)", pyarrow_json(True)), ("pyarrow.json (1 thread)", pyarrow_json(False)),
    ("orjson per line (parse only)", orjson_lines),
]:
    print(f"{name:32s} {median_rate(read) / 1e6:6.2f} M rows/s")
