#!/usr/bin/env python3
"""Runs schemathesis against a deployment's entry point, then compares what
it found with baseline.txt. Exits 1 on a finding the baseline does not
list, naming its request and answer; names baseline lines nothing matched,
which may go.

A finding is schemathesis' failure code (ST202 and the like: `st explain
<code>`), the operation, the answer's status and the `code` of its Error
body (`-` when it has none). "Created resource not found" (ST302) is
ST302/replay when the create was answered with a stored response
(`Idempotent-Replayed: true`). A baseline line accepts the findings it names,
with the reason they are no defect:

    <code> <METHOD> <path> <status> <error code> # <reason>

where <METHOD> <path> may be `* *` for every operation.

Two runs, each with every check and phase (the stateful one included): the
public API with an API key, and the admin API with the admin token. Apart,
because the fuzzer's admin calls could otherwise revoke the very key the
public run sends.
"""
import argparse
import base64
import json
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
DOCUMENT = HERE.parent.parent.parent / "schemas" / "openapi.yaml"


def read_baseline(path):
    entries = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        rule, _, reason = line.partition(" # ")
        parts = rule.split()
        if len(parts) != 5 or not reason.strip():
            sys.exit(f"{path}:{number}: want '<code> <METHOD> <path> <status> <error code> # <reason>', got: {line}")
        entries.append((parts, reason.strip()))
    return entries


def matches(rule, finding):
    code, method, path, status, error = rule
    return (code == finding["code"] and status == str(finding["status"]) and error == finding["error"] and
            ((method, path) == ("*", "*") or f"{method} {path}" == finding["operation"]))


def text(payload):
    if isinstance(payload, dict) and "$base64" in payload:
        return base64.b64decode(payload["$base64"]).decode("utf-8", "replace")
    return "" if payload is None else str(payload)


def error_code(body):
    try:
        value = json.loads(body).get("code")
        return value if isinstance(value, str) and value else "-"
    except (ValueError, AttributeError):
        return "-"


def replayed(interaction):
    headers = (interaction.get("response") or {}).get("headers") or {}
    return any(name.lower() == "idempotent-replayed" for name in headers)


def findings(ndjson):
    """Each failed check of schemathesis' NDJSON event stream, with the
    request and answer of the case that failed it."""
    found = []
    for line in ndjson.read_text().splitlines():
        event = json.loads(line)
        recorder = event.get("ScenarioFinished", {}).get("recorder", {})
        interactions = recorder.get("interactions", {})
        for case_id, checks in recorder.get("checks", {}).items():
            for check in checks:
                if check.get("status") != "failure":
                    continue
                failure = check["failure_info"]["failure"]
                interaction = interactions.get(case_id) or {}
                # ST302: the create is the failing GET's parent case.
                parent = (recorder.get("cases", {}).get(case_id) or {}).get("parent_id")
                creator = (interactions.get(parent) or {}) if failure["code"] == "ST302" else {}
                request = interaction.get("request") or {}
                response = interaction.get("response") or {}
                answer = text(response.get("content"))
                found.append({
                    "code": failure["code"] + ("/replay" if replayed(creator) else ""),
                    "operation": failure["operation"],
                    "status": response.get("status_code", "none"), "error": error_code(answer),
                    "title": failure["title"],
                    "message": failure.get("message", ""),
                    "request": f"{request.get('method', '?')} {request.get('uri', '?')} "
                               f"{ {k: v for k, v in (request.get('headers') or {}).items() if k.lower() in ('if-match', 'idempotency-key', 'content-type')} } "
                               f"{text(request.get('body'))[:300]}",
                    "answer": answer[:300],
                })
    return found


def run(args, reports, name, scope, header, seconds):
    ndjson = reports / f"{name}.ndjson"
    command = [args.st, "--no-color", "run", str(DOCUMENT), "--url", args.url, "--checks", "all",
               "--phases", "examples,coverage,fuzzing,stateful", "--max-time", str(seconds),
               "--continue-on-failure", "--workers", "1", "--request-timeout", "20",
               "--seed", str(args.seed), "--report", "ndjson", "--report-ndjson-path", str(ndjson),
               "--warnings", "off", "-H", header] + scope
    print(f"== schemathesis, the {name} API, {seconds} s", flush=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    (reports / f"{name}.log").write_text(done.stdout)
    # The summary: its counts, and any error of schemathesis' own (a request
    # it could not make).
    summary = done.stdout[done.stdout.rfind("Test cases:"):] if "Test cases:" in done.stdout else done.stdout[-3000:]
    if "Errors:" in done.stdout:
        summary = done.stdout[done.stdout.rfind("Errors:"):]
    print(summary.strip(), flush=True)
    if not ndjson.exists():
        print(done.stdout[-20000:])
        sys.exit(f"schemathesis ({name}) wrote no report (exit {done.returncode})")
    return findings(ndjson)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--st", required=True, help="the schemathesis command")
    parser.add_argument("--url", required=True, help="the entry point's base URL")
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--seconds", type=int, default=150, help="the whole time budget")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--baseline", type=pathlib.Path, default=HERE / "baseline.txt")
    parser.add_argument("--report-dir", type=pathlib.Path, help="keep schemathesis' reports and logs here")
    args = parser.parse_args()

    baseline = read_baseline(args.baseline)
    with tempfile.TemporaryDirectory() as tmp:
        reports = args.report_dir or pathlib.Path(tmp)
        reports.mkdir(parents=True, exist_ok=True)
        found = run(args, reports, "public", ["--exclude-path-regex", "^/admin/"],
                    f"X-API-Key: {args.api_key}", max(1, args.seconds * 2 // 3))
        found += run(args, reports, "admin", ["--include-path-regex", "^/admin/"],
                     f"Authorization: Bearer {args.admin_token}", max(1, args.seconds // 3))

    used = set()
    new = {}
    accepted = 0
    for finding in found:
        hits = [i for i, (rule, _) in enumerate(baseline) if matches(rule, finding)]
        used.update(hits)
        accepted += 1 if hits else 0
        if not hits:
            new.setdefault((finding["code"], finding["operation"], finding["status"], finding["error"]), finding)
    for i, (rule, reason) in enumerate(baseline):
        if i not in used:
            print(f"baseline line not seen in this run (it may go): {' '.join(rule)} # {reason}")
    print(f"schemathesis: {len(found)} failed checks, {accepted} of them in the baseline; {len(new)} new findings")
    for (code, operation, status, error), f in sorted(new.items(), key=str):
        print(f"\nNEW {code} {operation} {status} {error}: {f['title']}\n  {f['message'][:400]}\n"
              f"  request: {f['request']}\n  answer: {f['answer']}")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
