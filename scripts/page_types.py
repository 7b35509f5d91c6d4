"""Write the page's protocol types (``types/protocol.d.ts``) from the published JSON Schemas.

The page is plain JavaScript whose JSDoc types tsc checks (tsconfig.json). What the server sends it
is declared once, in ``src/majiang/data/protocol.schema.json`` (the websocket messages, written from
the pydantic models) and ``observation.schema.json`` (``view``: what one seat sees). This script
turns both into one global ``Protocol`` namespace of TypeScript declarations, so the page's modules
say ``Protocol.Snapshot`` and tsc holds them to what the server really sends.

Run ``python scripts/page_types.py`` after either schema changes (``--check`` only compares);
``tests/page/test_page_types.py`` fails when the committed file differs from a fresh run by a byte.

Only the JSON Schema the two files use is understood (``$ref``, ``anyOf``/``oneOf``, ``const``,
``enum``, ``type``, ``properties``/``required``, ``additionalProperties``, ``items``); anything else
raises, so a schema that grows a new construct is noticed here, not silently typed ``any``.
"""

from __future__ import annotations

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTOCOL = ROOT / "src" / "majiang" / "data" / "protocol.schema.json"
OBSERVATION = ROOT / "src" / "majiang" / "data" / "observation.schema.json"
OUT = ROOT / "types" / "protocol.d.ts"

# The protocol schema leaves a snapshot's ``view`` an open object: observation.schema.json owns its shape.
REFINED = {("Snapshot", "view"): "Observation | null"}
# An object the schema leaves open (``additionalProperties: true``: settlement, hints, a patch) is
# JSON whose shape the page reads by convention; it is typed so, by name, rather than by guess.
OPEN = "Open"
# Words of a schema the types do not carry (they bound values, not shapes) and are skipped.
IGNORED = {"title", "description", "default", "maxLength", "minLength", "maxItems", "minItems", "minimum", "maximum",
           "pattern", "minProperties", "maxProperties", "discriminator", "propertyNames"}
SCALARS = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean", "null": "null"}


def type_name(ref_name: str) -> str:
    """A $defs name as a type's: ``observation`` -> ``Observation``, ``ActionBody`` stays."""
    return ref_name[:1].upper() + ref_name[1:]


def union(parts: list[str]) -> str:
    seen: list[str] = []
    for p in parts:
        if p not in seen:
            seen.append(p)
    return " | ".join(seen)


def literal(value: object) -> str:
    return "null" if value is None else json.dumps(value, ensure_ascii=False)


def doc(text: str | None, indent: str) -> list[str]:
    if not text:
        return []
    text = re.sub(r"``([^`]*)``", r"`\1`", text).replace("*/", "* /")
    return [f"{indent}/** {text} */"]


class Writer:
    """Turns one schema's $defs into TypeScript, by name; ``wanted`` are the defs written."""

    def __init__(self, schema: dict, defs_used: list[str] | None = None):
        self.defs = schema["$defs"]
        self.wanted = list(self.defs) if defs_used is None else defs_used

    def ts(self, node: dict | bool, indent: str, where: str) -> str:
        if node is True or node == {}:
            return "unknown"
        if not isinstance(node, dict):
            raise ValueError(f"{where}: a schema of {node!r} is not understood")
        unknown = set(node) - IGNORED - {"$ref", "anyOf", "oneOf", "const", "enum", "type", "properties", "required",
                                         "additionalProperties", "items"}
        if unknown:
            raise ValueError(f"{where}: schema words {sorted(unknown)} are not understood; teach scripts/page_types.py")
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            if name not in self.wanted:
                self.wanted.append(name)  # reached from a written def: written too
            return type_name(name)
        for key in ("anyOf", "oneOf"):
            if key in node:
                return union([self.ts(part, indent, f"{where}.{key}") for part in node[key]])
        if "const" in node:
            return literal(node["const"])
        if "enum" in node:
            return union([literal(v) for v in node["enum"]])
        kinds = node.get("type")
        if isinstance(kinds, list):
            return union([self.ts({**node, "type": k}, indent, where) for k in kinds])
        if kinds in SCALARS:
            return SCALARS[kinds]
        if kinds == "array":
            item = self.ts(node.get("items", True), indent, f"{where}[]")
            return f"({item})[]" if " " in item else f"{item}[]"
        if kinds == "object" or "properties" in node:
            return self.object(node, indent, where)
        raise ValueError(f"{where}: a schema of type {kinds!r} is not understood")

    def object(self, node: dict, indent: str, where: str, owner: str | None = None) -> str:
        props = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        if props and "additionalProperties" not in node:
            extra = False  # fields it does not name are ignored (pydantic's extra="ignore"): none typed
        if not props:
            if extra is True:
                return OPEN
            if extra is False:
                return "{}"
            return f"{{[key: string]: {self.ts(extra, indent, where + '{}')}}}"
        inner = indent + "  "
        required = set(node.get("required", ()))
        lines = ["{"]
        for name, sub in props.items():
            lines += doc(sub.get("description") if isinstance(sub, dict) else None, inner)
            typed = REFINED.get((owner, name)) or self.ts(sub, inner, f"{where}.{name}")
            lines.append(f"{inner}{name}{'' if name in required else '?'}: {typed};")
        if extra is True:
            lines.append(f"{inner}[key: string]: unknown;")
        elif extra is not False:
            lines.append(f"{inner}[key: string]: {self.ts(extra, inner, where + '{}')};")
        lines.append(indent + "}")
        return "\n".join(lines)

    def declarations(self, source: str) -> list[str]:
        out: list[str] = []
        done: set[str] = set()
        while len(done) < len(self.wanted):  # a def reached by $ref joins ``wanted`` while writing
            name = next(n for n in self.wanted if n not in done)
            done.add(name)
            node = self.defs[name]
            out += doc(node.get("description") or f"{source}: $defs.{name}", "  ")
            if isinstance(node, dict) and node.get("properties"):
                out.append(f"  interface {type_name(name)} {self.object(node, '  ', name, owner=name)}")
            else:
                out.append(f"  type {type_name(name)} = {self.ts(node, '  ', name)};")
            out.append("")
        return out


def generate() -> str:
    protocol = json.loads(PROTOCOL.read_text("utf-8"))
    observation = json.loads(OBSERVATION.read_text("utf-8"))
    ours = Writer(protocol).declarations("protocol.schema.json")
    seen = Writer(observation, ["observation"]).declarations("observation.schema.json")
    names = [line.split()[1] for line in ours + seen if line.startswith(("  interface ", "  type "))]
    clashes = sorted({n for n in names if names.count(n) > 1})
    if clashes:
        raise ValueError(f"both schemas define {clashes}: one namespace cannot hold both")
    head = [
        "// Generated by scripts/page_types.py from src/majiang/data/protocol.schema.json and observation.schema.json:",
        "// do not edit (run `python scripts/page_types.py`; tests/page/test_page_types.py checks it is current).",
        f"// {protocol['title']}; {observation['title']}.",
        "",
        "declare namespace Protocol {",
        "  /** JSON object the schema leaves open (a settlement, hints, a patch): read by convention. */",
        f"  type {OPEN} = {{[key: string]: any}};",
        "",
        "  /** Every refusal's code (protocol.schema.json's `errors`). */",
        f"  type ErrorCode = {union([literal(code) for code in protocol['errors']])};",
        "",
    ]
    body = ours + seen
    while body and body[-1] == "":
        body.pop()
    return "\n".join(head + body + ["}", ""])


def main(argv: list[str]) -> int:
    text = generate()
    if "--check" in argv:
        current = OUT.read_text("utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is stale: run python scripts/page_types.py", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text, "utf-8")
    print(OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
