"""Checks one answer of `vision-tasks serve` that curl saved (scripts/serve/schemathesis.sh, positive part).

    check_answer.py OPENAPI.json METHOD PATH-TEMPLATE WANT-STATUS STATUS CONTENT-TYPE BODY [CLI-JSONL [LINE]]

The status must be WANT-STATUS and documented for the operation in the server's own OpenAPI document;
the body must be JSON of the documented content type and valid against the documented schema (JSON
Schema 2020-12, as OpenAPI 3.1 says). With CLI-JSONL, the body must equal line LINE (default 1) of what
the `vision-tasks` command printed for the same image and options, with "file" set to "-" (docs/SERVER.md:
"the same encoder"). Prints one line; exits 1 when a check fails. Needs jsonschema_rs (schemathesis has it).
"""

import json
import sys

import jsonschema_rs


def fail(what: str, message: str) -> None:
    print(f"FAIL {what}: {message}")
    sys.exit(1)


def short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def main() -> None:
    args = sys.argv[1:]
    if len(args) not in (7, 8, 9):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    openapi_path, method, template, want, status, content_type, body_path = args[:7]
    cli_path = args[7] if len(args) > 7 else None
    line = int(args[8]) if len(args) > 8 else 1
    what = f"{method.upper()} {template}"

    with open(openapi_path, encoding="utf-8") as file:
        document = json.load(file)
    operation = document.get("paths", {}).get(template, {}).get(method.lower())
    if operation is None:
        fail(what, "the OpenAPI document has no such operation")
    if status != want:
        with open(body_path, "rb") as file:
            fail(what, f"status {status}, want {want}: {file.read()[:300]!r}")
    response = operation.get("responses", {}).get(status)
    if response is None:
        fail(what, f"status {status} is not documented for this operation")
    if not content_type.split(";")[0].strip() == "application/json":
        fail(what, f"Content-Type {content_type!r}, want application/json")
    if "application/json" not in response.get("content", {}):
        fail(what, f"the document has no application/json answer for {status}")
    try:
        with open(body_path, encoding="utf-8") as file:
            body = json.load(file)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        fail(what, f"the body is not JSON: {error}")
    schema = dict(response["content"]["application/json"].get("schema", {}))
    # "$ref": "#/components/..." resolves against the root of the schema being checked.
    schema["components"] = document.get("components", {})
    schema.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    errors = [f"{'/'.join(map(str, error.instance_path)) or '(root)'}: {error.message}"
              for error in jsonschema_rs.Draft202012Validator(schema).iter_errors(body)]
    if errors:
        fail(what, "not valid against the documented schema: " + "; ".join(errors[:5]))

    if cli_path is not None:
        with open(cli_path, encoding="utf-8") as file:
            lines = [text for text in file.read().splitlines() if text.strip()]
        if len(lines) < line:
            fail(what, f"the command printed {len(lines)} line(s), want at least {line}")
        expected = json.loads(lines[line - 1])
        expected["file"] = "-"
        if body != expected:
            keys = sorted(key for key in set(body) | set(expected) if body.get(key) != expected.get(key))
            shown = "; ".join(f"{key}: {short(body.get(key))} here, {short(expected.get(key))} from the command"
                              for key in keys)
            fail(what, f"differs from the command's answer: {shown}")
    summary = ", ".join(f"{key}: {len(value)}" for key, value in body.items() if isinstance(value, list)) \
        if isinstance(body, dict) else type(body).__name__
    print(f"ok   {what} -> {status} JSON, schema-valid{', same as the command' if cli_path else ''}"
          f"{' (' + summary + ')' if summary else ''}")


if __name__ == "__main__":
    main()
