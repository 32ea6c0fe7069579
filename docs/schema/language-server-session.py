"""Records what an editor's YAML language server says about a deliberately wrong ruleset.

Run from the repository's root, after `npm install yaml-language-server` in some folder and
`cargo build`:

    YAML_LANGUAGE_SERVER=<that folder>/node_modules/.bin/yaml-language-server \
        python3 docs/schema/language-server-session.py > docs/schema/language-server-session.md

It lays the ruleset below out as in the repository (`tables/demo/ruleset.yaml` beside a copy of
`docs/schema/`) in a temporary folder, starts the server with `--stdio`, speaks LSP to it
(`initialize`, `textDocument/didOpen`, one `textDocument/hover`, then the file with a new,
empty line typed into the procedure and `textDocument/completion` there), collects the
`textDocument/publishDiagnostics` it sends and the fields it offers to complete, runs `umpire rules check` on the same folder, and
prints the transcript as Markdown. No setting names the schema: the file's modeline does.
"""

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

RULESET = """\
# yaml-language-server: $schema=../../docs/schema/ruleset.schema.json
# A deliberately wrong ruleset, to show what an editor says as you type.
id: Demo
name: Demo ruleset
dice:
  - name: cmd
    faces: [{value: 1}, {value: 2, weight: 0.5}]
procedures:
  - id: morale_check
    name: Morale check
    roll: 2d6
    inputs:
      - {name: casualties, type: integer, min: 0, max: 10}
      - {name: shaken, type: flag}
      - {name: terrain, type: choice}
    modifiers:
      - {name: Shaken, value: 1.5, when: shaken}
      - {name: Casualties, valeu: -1}
    lookup:
      threshold: {target: 7, pass: held, fail: broken}
      table: {table: morale}
    outcomes:
      - code: held
      - code: broken
        effects:
          - {kind: sp_los, amount: 1}
          - {kind: follow_up}
sequence_of_play:
  - {id: morale, name: Morale phase, mandatory: yes, procedures: [morale_check]}
"""

repo = Path.cwd()
server = os.environ.get("YAML_LANGUAGE_SERVER", "yaml-language-server")
umpire = os.environ.get("UMPIRE", str(repo / "target/debug/umpire"))

work = Path(tempfile.mkdtemp(prefix="umpire-lsp-"))
(work / "tables/demo").mkdir(parents=True)
(work / "docs/schema").mkdir(parents=True)
for schema in (repo / "docs/schema").glob("*.schema.json"):
    shutil.copy(schema, work / "docs/schema" / schema.name)
doc_path = work / "tables/demo/ruleset.yaml"
doc_path.write_text(RULESET)


def local(text):
    """The transcript names no folder of this machine."""
    return text.replace(work.as_uri(), ".").replace(str(work), ".")


proc = subprocess.Popen(
    [server, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
)
inbox = queue.Queue()


def reader():
    f = proc.stdout
    while True:
        headers = {}
        while True:
            line = f.readline()
            if not line:
                return
            line = line.decode().strip()
            if not line:
                break
            key, value = line.split(":", 1)
            headers[key.lower()] = value.strip()
        inbox.put(json.loads(f.read(int(headers["content-length"]))))


threading.Thread(target=reader, daemon=True).start()


def send(message):
    data = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
    proc.stdin.flush()


settings = {"yaml": {"validate": True, "hover": True, "completion": True,
                     "schemaStore": {"enable": False}}}
last_id = [0]


def request(method, params):
    last_id[0] += 1
    send({"jsonrpc": "2.0", "id": last_id[0], "method": method, "params": params})
    return last_id[0]


def notify(method, params):
    send({"jsonrpc": "2.0", "method": method, "params": params})


def pump(until, timeout=30):
    """Answers the server's own requests; returns the first message `until` accepts."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            message = inbox.get(timeout=0.5)
        except queue.Empty:
            continue
        if "method" in message and "id" in message:
            result = None
            if message["method"] == "workspace/configuration":
                result = [settings["yaml"] if item.get("section") == "yaml" else settings
                          for item in message["params"]["items"]]
            send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            continue
        if until(message):
            return message
    proc.kill()
    sys.exit("the language server did not answer")


root_uri = work.as_uri()
init = request("initialize", {
    "processId": os.getpid(),
    "rootUri": root_uri,
    "workspaceFolders": [{"uri": root_uri, "name": "demo"}],
    "capabilities": {
        "textDocument": {"publishDiagnostics": {}, "hover": {"contentFormat": ["plaintext"]},
                         "completion": {"completionItem": {
                             "documentationFormat": ["plaintext"], "snippetSupport": False}}},
        "workspace": {"configuration": True},
    },
})
info = pump(lambda m: m.get("id") == init)["result"].get("serverInfo", {})
notify("initialized", {})
notify("workspace/didChangeConfiguration", {"settings": settings})

uri = doc_path.as_uri()
notify("textDocument/didOpen", {"textDocument": {
    "uri": uri, "languageId": "yaml", "version": 1, "text": RULESET}})
diagnostics = pump(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                   and m["params"]["uri"] == uri and m["params"]["diagnostics"])
diagnostics = diagnostics["params"]["diagnostics"]

lines = RULESET.split("\n")
hover_line = next(i for i, l in enumerate(lines) if "mandatory:" in l)
hover_id = request("textDocument/hover", {
    "textDocument": {"uri": uri},
    "position": {"line": hover_line, "character": lines[hover_line].index("mandatory") + 2}})
hover = pump(lambda m: m.get("id") == hover_id)["result"]

# The umpire starts a new line in the procedure, indented as its fields are: the server offers
# the fields a procedure may still have, each with its doc comment from the schema.
typed_after = next(i for i, l in enumerate(lines) if "name: Morale check" in l)
typing = lines[:typed_after + 1] + ["    "] + lines[typed_after + 1:]
notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                  "contentChanges": [{"text": "\n".join(typing)}]})
completion_id = request("textDocument/completion", {
    "textDocument": {"uri": uri},
    "position": {"line": typed_after + 1, "character": 4}})
completion = pump(lambda m: m.get("id") == completion_id)["result"]
items = completion.get("items", []) if isinstance(completion, dict) else (completion or [])
proc.kill()

check = subprocess.run([umpire, "rules", "check", "tables/demo"], cwd=work,
                       capture_output=True, text=True)
shutil.rmtree(work)

out = []
w = out.append
w("# The YAML language server and the ruleset schema: a recorded session\n")
w("Recorded by `docs/schema/language-server-session.py` (its docstring says how to run it again): "
  "`yaml-language-server` %s, from npm, started with `--stdio` and spoken to over LSP "
  "(`initialize`, `textDocument/didOpen`, one `textDocument/hover`, one "
  "`textDocument/completion`), on a deliberately wrong "
  "ruleset laid out as in the repository: `tables/demo/ruleset.yaml` beside `docs/schema/`, so "
  "that its first line, `# yaml-language-server: $schema=../../docs/schema/ruleset.schema.json`, "
  "finds the schema. No setting names the schema: the modeline does. The diagnostics are what "
  "an editor running the server underlines as you type.\n" % info.get("version", "?"))
w("## The file\n")
w("```yaml")
w(RULESET.rstrip("\n"))
w("```\n")
w("## What the language server publishes (%d diagnostics)\n" % len(diagnostics))
w("Lines and columns from 1 (LSP counts from 0).\n")
w("| line:col | severity | message | where |")
w("|---|---|---|---|")
severity = {1: "error", 2: "warning", 3: "information", 4: "hint"}
for d in sorted(diagnostics, key=lambda d: (d["range"]["start"]["line"],
                                            d["range"]["start"]["character"])):
    start, end = d["range"]["start"], d["range"]["end"]
    line = lines[start["line"]]
    span = line[start["character"]:end["character"]] if start["line"] == end["line"] else ""
    if len(span.strip()) < 2:
        span = line[start["character"]:]
    message = " ".join(local(d["message"]).split()).replace("|", "\\|")
    where = span.strip()[:48].replace("|", "\\|").replace("`", "'")
    w("| %d:%d | %s | %s | `%s` |" % (start["line"] + 1, start["character"] + 1,
                                       severity.get(d.get("severity"), "?"), message, where))
w("")
w("## Hover on `mandatory` (line %d)\n" % (hover_line + 1))
contents = (hover or {}).get("contents", "")
if isinstance(contents, dict):
    contents = contents.get("value", "")
w("```text")
w(local(contents).strip())
w("```\n")
w("## Completion on a new line in the procedure (line %d, column 5)\n" % (typed_after + 2))
w("The umpire has typed a new line after `name: Morale check`, indented as the procedure's "
  "fields are; asked to complete there, the server offers the fields a procedure may still "
  "have (those already written are left out), each documented from the schema, which is "
  "written from the doc comments of the code (%d items).\n" % len(items))
w("| field | what the schema says |")
w("|---|---|")
for item in sorted(items, key=lambda i: i.get("sortText") or i["label"]):
    doc = item.get("documentation") or ""
    if isinstance(doc, dict):
        doc = doc.get("value", "")
    doc = " ".join(local(doc).split()).replace("|", "\\|")
    w("| `%s` | %s |" % (item["label"], doc[:160] + ("…" if len(doc) > 160 else "")))
w("")
w("## What `umpire rules check tables/demo` says of the same file\n")
w("The loader stops at the first problem the deserialiser meets (then, once the file reads, "
  "validates everything and lists every problem); the language server lists them all as you "
  "type. Exit code %d.\n" % check.returncode)
w("```text")
w(local(check.stdout + check.stderr).strip())
w("```")
print("\n".join(out))
