#!/usr/bin/env python3
"""TEST HARNESS ONLY: compares the worker's AST -> SymPy builder with SymPy's own parser.

This file uses sympify on source text on purpose (it is the oracle); the product never does.
stdin: JSON [{"source": "Eq(...)", "equation": {lhs, rhs} AST, "domain": {...}}, ...]
stdout: JSON [{"ok": bool, "built": str, "parsed": str, "error": str?}, ...]
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "resources", "python"))

import sympy  # noqa: E402
import worker  # noqa: E402

worker.sp = sympy


def main():
    items = json.load(sys.stdin)
    out = []
    for item in items:
        try:
            names = worker.ast_names(item["equation"])
            symbols, _ = worker.make_symbols(item.get("domain"), names)
            b = worker.Builder(dict(symbols))
            lhs, rhs = b.equation(item["equation"])
            built = sympy.Eq(lhs, rhs)
            # The same Symbol objects (same assumptions) for every name; decimals as exact rationals.
            parsed = sympy.sympify(item["source"], locals=dict(symbols), rational=True)
            ok = built == parsed and (
                not isinstance(parsed, sympy.Equality) or (parsed.lhs == lhs and parsed.rhs == rhs)
            )
            out.append({"ok": bool(ok), "built": sympy.srepr(built), "parsed": sympy.srepr(parsed)})
        except Exception as exc:  # report, don't stop the batch
            out.append({"ok": False, "built": "", "parsed": "", "error": "%s: %s" % (type(exc).__name__, exc)})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
