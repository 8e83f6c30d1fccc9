#!/usr/bin/env python3
"""TrueTrack's loopback test receiver: stores JSON batches of fixes, honours Idempotency-Key, injects faults.

Started by Tests/TrueTrackSyncTests; bound to 127.0.0.1 on an ephemeral port, which it prints as
"PORT <n>" on its first stdout line. Exits by itself after --lifetime seconds (default 300).

Endpoints
  POST|PUT /fixes          a JSON array of fix objects; stored under its Idempotency-Key (a repeat of a stored
                           key is answered 200 and not stored again; a repeat whose body differs is counted in
                           key_mismatches). A body that is not a JSON array of objects: 400.
  GET  /stats              JSON counters (see Stats below).
  POST /control            JSON {"script": [...], "fail_rate": 0.3, "faults": [...], "seed": 1,
                           "sessions": {id: {"phase": "open"|"ended", "distance_m": x}}, "max_body": n}
                           ("max_body": a request whose body is over n bytes is answered 413 and stores nothing,
                           as a server with a body-size limit does: the same answer however often it is sent,
                           unlike a scripted 413, which a retried request does not see again; 0 or absent: none)
  GET  /sessions/<id>      the session's status from "sessions" (404 when unknown).

Faults (each names what the next request gets; "script" is consumed in order before random faults):
  ok            store, 200
  500 / 503     answer that status, store nothing
  408, 401, 404, 405, 409, 410, 413, 422  answer that status, store nothing
  207           answer 207 Multi-Status (per-item results), store nothing
  429[:s]       429 with Retry-After: s (default 0)
  timeout       sleep --timeout-sleep seconds (default 2), then close without answering; store nothing
  reset         read half the body, then reset the connection (RST); store nothing
  slow[:s]      sleep s seconds (default 0.15), then store and answer 200
  trickle[:s]   send a 200 status line and headers promising a body, then one byte every 0.5 s for s seconds
                (default 30), then reset the connection; store nothing (a proxy that stalls mid-answer: never idle
                long enough for an idle timeout)
  store-500     store, then answer 500
  store-drop    store, then reset the connection without answering
  302           answer 302 with Location: /landing (whose GET answers 200 with an HTML page); store nothing
  store-huge[:m]          store, then answer 200 with a body of m MiB (default 2048) announced by Content-Length,
                          sent as fast as the client reads it; the bytes it got out are counted in huge_body_bytes
  store-huge-chunked[:m]  the same, the body chunked (no length announced)
  chunked-reset           store nothing, answer 200 with a chunked body and reset the connection mid-body (an
                          answer broken off: no acknowledgement)
  400-chunked             store nothing, answer 400 with a chunked body {"error": "chunked refusal"}
"""
import argparse
import json
import os
import random
import signal
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {
    "script": [],
    "fail_rate": 0.0,
    "faults": [],
    "rng": random.Random(1),
    "sessions": {},
}
BATCHES = {}  # idempotency key -> canonical body (list of objects)
ID_COUNTS = {}  # fix "id" -> times stored
STATS = {
    "requests": 0,
    "stored_batches": 0,
    "stored_fixes": 0,
    "duplicate_batches": 0,
    "key_mismatches": 0,
    "missing_key": 0,
    "bad_bodies": 0,
    "truncated_bodies": 0,
    "faults": {},
    "methods": {},
    "authorization": [],
    "content_types": [],
    "first_object": None,
}
ARGS = None


def next_fault():
    with LOCK:
        if STATE["script"]:
            return STATE["script"].pop(0)
        if STATE["faults"] and STATE["rng"].random() < STATE["fail_rate"]:
            return STATE["rng"].choice(STATE["faults"])
    return "ok"


def count_truncated():
    """A body shorter than its Content-Length: the client gave up mid-body (its timeout, or an upload that stalled
    inside URLSession on Linux) and closed the connection; a network event, not a malformed request. Counted apart
    (`truncated_bodies`) so that `bad_bodies` stays "a full body that is not JSON" and a test can leave the resend
    of a stalled attempt out of its request count."""
    with LOCK:
        STATS["truncated_bodies"] += 1


def reset_connection(handler):
    sock = handler.connection
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    handler.close_connection = True
    try:
        sock.close()
    except OSError:
        pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # quiet
        pass

    def reply(self, status, body=b"", headers=None):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/stats":
            with LOCK:
                stats = dict(STATS)
                stats["distinct_ids"] = len(ID_COUNTS)
                stats["duplicate_ids"] = sum(1 for c in ID_COUNTS.values() if c > 1)
                stats["min_id"] = min(ID_COUNTS) if ID_COUNTS else None
                stats["max_id"] = max(ID_COUNTS) if ID_COUNTS else None
                body = json.dumps(stats).encode()
            self.reply(200, body)
        elif self.path == "/landing":
            with LOCK:
                STATS["landing_visits"] = STATS.get("landing_visits", 0) + 1
            self.reply(200, b"<html><body>Welcome</body></html>")
        elif self.path.startswith("/sessions/"):
            sid = self.path[len("/sessions/"):]
            fault = next_fault()
            if fault == "timeout":
                time.sleep(ARGS.timeout_sleep)
                reset_connection(self)
                return
            if fault in ("500", "503"):
                self.reply(int(fault))
                return
            with LOCK:
                session = STATE["sessions"].get(sid)
            if session is None:
                self.reply(404, b"{}")
            else:
                self.reply(200, json.dumps(session).encode())
        else:
            self.reply(404, b"{}")

    def do_PUT(self):
        self.do_POST()

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        if self.path == "/control":
            body = json.loads(self.rfile.read(length) or b"{}")
            with LOCK:
                if "script" in body:
                    STATE["script"] = list(body["script"])
                if "fail_rate" in body:
                    STATE["fail_rate"] = float(body["fail_rate"])
                if "faults" in body:
                    STATE["faults"] = list(body["faults"])
                if "seed" in body:
                    STATE["rng"] = random.Random(body["seed"])
                if "sessions" in body:
                    STATE["sessions"] = body["sessions"]
                if "max_body" in body:
                    STATE["max_body"] = int(body["max_body"])
            self.reply(200, b"{}")
            return
        fault = next_fault()
        with LOCK:
            STATS["requests"] += 1
            STATS["faults"][fault] = STATS["faults"].get(fault, 0) + 1
            STATS["methods"][self.command] = STATS["methods"].get(self.command, 0) + 1
            auth = self.headers.get("Authorization")
            if auth is not None and auth not in STATS["authorization"]:
                STATS["authorization"].append(auth)
            agent = self.headers.get("User-Agent")
            agents = STATS.setdefault("user_agents", [])
            if agent is not None and agent not in agents:
                agents.append(agent)
            ctype = self.headers.get("Content-Type")
            if ctype not in STATS["content_types"]:
                STATS["content_types"].append(ctype)
        if fault == "reset":
            if len(self.rfile.read(length // 2)) < length // 2:
                count_truncated()
            reset_connection(self)
            return
        if fault == "timeout":
            if len(self.rfile.read(length)) < length:
                count_truncated()
            time.sleep(ARGS.timeout_sleep)
            reset_connection(self)
            return
        raw = self.rfile.read(length)
        if fault.startswith("trickle"):
            seconds = float(fault.split(":", 1)[1]) if ":" in fault else 30.0
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "100000")
                self.end_headers()
                self.wfile.flush()
                end = time.time() + seconds
                while time.time() < end:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.5)
                reset_connection(self)
            except OSError:
                pass  # the client gave up: what it should do
            return
        if fault in ("chunked-reset", "400-chunked"):
            try:
                self.send_response(200 if fault == "chunked-reset" else 400)
                self.send_header("Content-Type", "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                body = b'{"stored": ' if fault == "chunked-reset" else b'{"error": "chunked refusal"}'
                self.wfile.write(b"%x\r\n" % len(body) + body + b"\r\n")
                self.wfile.flush()
                if fault == "chunked-reset":
                    time.sleep(0.2)
                    reset_connection(self)
                else:
                    self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
            return
        if fault.startswith("429"):
            retry_after = fault.split(":", 1)[1] if ":" in fault else "0"
            self.reply(429, b"{}", {"Retry-After": retry_after})
            return
        if fault in ("500", "503", "408", "401", "403", "404", "405", "409", "410", "413", "422", "207"):
            self.reply(int(fault), b'{"error": "fault %s"}' % fault.encode())
            return
        if fault == "302":
            self.reply(302, b"", {"Location": "/landing"})
            return
        if fault == "301-nowhere":  # a redirect that names no target
            self.reply(301, b"", {})
            return
        if fault.startswith("slow"):
            time.sleep(float(fault.split(":", 1)[1]) if ":" in fault else 0.15)
        if len(raw) == length and 0 < STATE.get("max_body", 0) < length:
            with LOCK:
                # Counted as what it got, not as the script's "ok".
                STATS["faults"][fault] -= 1
                STATS["faults"]["413-max-body"] = STATS["faults"].get("413-max-body", 0) + 1
            self.reply(413, b'{"error": "body over %d bytes"}' % STATE["max_body"])
            return
        if len(raw) < length:
            count_truncated()
            return
        try:
            rows = json.loads(raw)
            if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
                raise ValueError("not an array of objects")
        except ValueError:
            with LOCK:
                STATS["bad_bodies"] += 1
            self.reply(400, b"{}")
            return
        key = self.headers.get("Idempotency-Key")
        duplicate = False
        with LOCK:
            if STATS["first_object"] is None and rows:
                STATS["first_object"] = rows[0]
            if key is None:
                STATS["missing_key"] += 1
            if key is not None and key in BATCHES:
                duplicate = True
                STATS["duplicate_batches"] += 1
                if BATCHES[key] != rows:
                    STATS["key_mismatches"] += 1
            else:
                if key is not None:
                    BATCHES[key] = rows
                STATS["stored_batches"] += 1
                STATS["stored_fixes"] += len(rows)
                for r in rows:
                    fid = r.get("id")
                    ID_COUNTS[fid] = ID_COUNTS.get(fid, 0) + 1
        if fault == "store-500":
            self.reply(500, b"{}")
            return
        if fault == "store-drop":
            reset_connection(self)
            return
        if fault.startswith("store-huge"):
            mib = int(fault.split(":", 1)[1]) if ":" in fault else 2048
            chunked = fault.startswith("store-huge-chunked")
            chunk = b"x" * (1 << 20)
            sent = 0
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                if chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                else:
                    self.send_header("Content-Length", str(mib << 20))
                self.end_headers()
                for _ in range(mib):
                    self.wfile.write((b"%x\r\n" % len(chunk) + chunk + b"\r\n") if chunked else chunk)
                    sent += len(chunk)
                if chunked:
                    self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass  # the client stopped reading: what it should do with a body it does not need
            with LOCK:
                STATS["huge_body_bytes"] = STATS.get("huge_body_bytes", 0) + sent
            return
        self.reply(200, json.dumps({"stored": len(rows), "duplicate": duplicate}).encode())


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=300)
    parser.add_argument("--timeout-sleep", type=float, default=2.0)
    ARGS = parser.parse_args()
    # A parent may hand down SIGTERM ignored or blocked: make it end the receiver.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    timer = threading.Timer(ARGS.lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    server.serve_forever(poll_interval=0.1)
    sys.exit(0)


if __name__ == "__main__":
    main()
