#!/usr/bin/env python3
"""Equimark SymPy worker: computer algebra that Z3 can't do, over JSON lines.

Protocol (one JSON object per line, UTF-8):
  worker -> client, first line:  {"ready": true, "protocol": 1, "sympy": "1.11.1", "python": "3.11.2", "pid": 123}
                                 or {"ready": false, "code": "no-sympy", "message": "..."} and exit 3
  client -> worker:              {"id": 7, "op": "prove_entailment", "timeout_ms": 4000, "args": {...}}
  worker -> client:              {"id": 7, "ok": true, "result": {...}, "ms": 12}
                                 {"id": 7, "ok": false, "error": {"code": "refused", "message": "..."}, "ms": 1}

Safety rules:
  * Equations arrive as Equimark's AST (shared/equation/ast.ts), never as source text: this file
    never calls eval, exec, sympify or parse_expr. SymPy objects are built from a whitelist of node
    kinds (num, sym, const, neg, bin, call) and functions; anything else is refused.
  * Numbers are exact rationals built from their decimal text; there are no floats.
  * Limits before building: nesting depth, node count, number length, exponent size, and the
    size of any rational the build produces.
  * Resources: the address-space limit (RLIMIT_AS, --memory-mb) is set at start; each request has
    a soft time limit (an interval timer raising an exception the request can't swallow). The
    client also kills the whole process if a request overruns its hard limit.
  * A MemoryError answers the request with code 'memory' and then the worker exits, so the client
    starts a fresh one.
"""

import json
import os
import re
import signal
import sys
import time

PROTOCOL = 1
MAX_LINE_BYTES = 1 << 20
MAX_DEPTH = 100
MAX_NODES = 4000
MAX_NUMBER_DIGITS = 100
MAX_EXPONENT = 1000  # |numerator| of a rational exponent
MAX_EXPONENT_DENOMINATOR = 10 ** 12  # roots are cheap; only their size needs a bound
MAX_RATIONAL_BITS = 20000
NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
NUM_RE = re.compile(r"^(\d+(\.\d*)?|\.\d+)$")
ASSUMPTIONS = ("positive", "nonnegative", "nonzero", "real")
FUNCTION_ARITY = {
    "sqrt": 1, "sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1,
    "exp": 1, "log": 1, "Abs": 1,
}
BIN_OPS = ("+", "-", "*", "/", "**")


class Refused(Exception):
    """The request asks for something outside the whitelist or the limits."""

    code = "refused"


class BadRequest(Exception):
    code = "bad-request"


class Timeout(BaseException):
    """Raised by the interval timer. A BaseException so SymPy's `except Exception` can't swallow it."""


def _parse_args(argv):
    opts = {"memory_mb": 1024, "debug_ops": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--memory-mb" and i + 1 < len(argv):
            opts["memory_mb"] = int(argv[i + 1])
            i += 2
            continue
        if a == "--debug-ops":
            opts["debug_ops"] = True
        i += 1
    return opts


def _set_memory_limit(mb):
    if mb <= 0:
        return
    try:
        import resource

        limit = mb * 1024 * 1024
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY and hard < limit:
            limit = hard
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass  # not available on this platform (Windows): the client's time limit still applies


def _write(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


# SymPy is imported after the memory limit is set (main) and bound here.
sp = None


# ---------------------------------------------------------------------------------------------
# AST -> SymPy (the whitelist)
# ---------------------------------------------------------------------------------------------

def make_symbols(domain, extra_names=()):
    """Symbols for a domain {"variables": [{"name", "assumptions", "range"}]}; every symbol is real."""
    if domain is None:
        domain = {}
    if not isinstance(domain, dict):
        raise BadRequest("domain must be an object {variables: [...]}")
    variables = domain.get("variables", [])
    if not isinstance(variables, list) or len(variables) > 200:
        raise BadRequest("domain.variables must be a list (at most 200)")
    out = {}
    ranges = {}
    for v in variables:
        if not isinstance(v, dict) or not isinstance(v.get("name"), str) or not NAME_RE.match(v["name"]):
            raise BadRequest("each domain variable needs a name of letters, digits and _")
        kw = {"real": True}
        assumptions = v.get("assumptions", []) or []
        if not isinstance(assumptions, list):
            raise BadRequest("assumptions of '%s' must be a list" % v["name"])
        for a in assumptions:
            if a not in ASSUMPTIONS:
                raise Refused("unknown assumption '%s' on '%s' (allowed: %s)" % (a, v["name"], ", ".join(ASSUMPTIONS)))
            kw[a] = True
        rng = v.get("range")
        if rng is not None:
            if (not isinstance(rng, list) or len(rng) != 2
                    or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in rng)):
                raise BadRequest("range of '%s' must be [low, high]" % v["name"])
            lo, hi = rng
            # An open interval (lo, hi) with lo >= 0 means positive; with hi <= 0, negative.
            if lo >= 0:
                kw["positive"] = True
            elif hi <= 0:
                kw["negative"] = True
            ranges[v["name"]] = (sp.Rational(str(lo)), sp.Rational(str(hi)))
        if kw.get("positive") and kw.get("negative"):
            raise Refused("variable '%s' can't be both positive and negative" % v["name"])
        out[v["name"]] = sp.Symbol(v["name"], **kw)
    for name in extra_names:
        if name not in out:
            out[name] = sp.Symbol(name, real=True)
    return out, ranges


class Builder:
    """Builds SymPy objects from AST JSON, refusing anything outside the whitelist."""

    def __init__(self, symbols):
        self.symbols = symbols
        self.nodes = 0

    def _check_number(self, value):
        if isinstance(value, sp.Rational) and (
            int(value.p).bit_length() > MAX_RATIONAL_BITS or int(value.q).bit_length() > MAX_RATIONAL_BITS
        ):
            raise Refused("a number in the expression is too large (more than %d bits)" % MAX_RATIONAL_BITS)
        return value

    def _pow(self, base, exponent):
        for r in exponent.atoms(sp.Rational):
            if abs(r.p) > MAX_EXPONENT or r.q > MAX_EXPONENT_DENOMINATOR:
                raise Refused("exponent %s is too large (the limit is %d)" % (r, MAX_EXPONENT))
        if isinstance(base, sp.Rational) and isinstance(exponent, sp.Rational):
            bits = max(int(base.p).bit_length(), int(base.q).bit_length())
            if bits * abs(exponent.p) > MAX_RATIONAL_BITS:
                raise Refused("power %s**%s is too large to compute" % (base if bits < 64 else "(large number)", exponent))
        return base ** exponent

    def expr(self, node, depth=0):
        if depth > MAX_DEPTH:
            raise Refused("expression nested more than %d levels deep" % MAX_DEPTH)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise Refused("expression has more than %d nodes" % MAX_NODES)
        if not isinstance(node, dict):
            raise Refused("expected an expression node (an object with 'kind'), got %s" % type(node).__name__)
        kind = node.get("kind")
        keys = set(node.keys())
        if kind == "num":
            _only(keys, {"kind", "text"}, kind)
            text = node.get("text")
            if not isinstance(text, str) or not NUM_RE.match(text):
                raise Refused("number node text must be decimal digits, got %r" % (text if isinstance(text, str) else type(text).__name__))
            if len(text.replace(".", "")) > MAX_NUMBER_DIGITS:
                raise Refused("number with more than %d digits" % MAX_NUMBER_DIGITS)
            whole, _, frac = text.partition(".")
            return self._check_number(sp.Rational(int((whole or "0") + frac), 10 ** len(frac)))
        if kind == "sym":
            _only(keys, {"kind", "name"}, kind)
            name = node.get("name")
            if not isinstance(name, str) or not NAME_RE.match(name):
                raise Refused("symbol name must be letters, digits and _ (at most 64), got %r" % (name if isinstance(name, str) else type(name).__name__))
            s = self.symbols.get(name)
            if s is None:
                s = sp.Symbol(name, real=True)
                self.symbols[name] = s
            return s
        if kind == "const":
            _only(keys, {"kind", "name"}, kind)
            name = node.get("name")
            if name == "pi":
                return sp.pi
            if name == "E":
                return sp.E
            raise Refused("unknown constant %r (allowed: pi, E)" % (name,))
        if kind == "neg":
            _only(keys, {"kind", "arg"}, kind)
            return self._check_number(-self.expr(node.get("arg"), depth + 1))
        if kind == "bin":
            _only(keys, {"kind", "op", "left", "right"}, kind)
            op = node.get("op")
            if op not in BIN_OPS:
                raise Refused("unknown operator %r (allowed: %s)" % (op, " ".join(BIN_OPS)))
            left = self.expr(node.get("left"), depth + 1)
            right = self.expr(node.get("right"), depth + 1)
            # The same operators Python applies to SymPy objects, so the tree evaluates exactly as
            # SymPy's own parse of the printed source would.
            if op == "+":
                out = left + right
            elif op == "-":
                out = left - right
            elif op == "*":
                out = left * right
            elif op == "/":
                out = left / right
            else:
                out = self._pow(left, right)
            return self._check_number(out)
        if kind == "call":
            _only(keys, {"kind", "fn", "args"}, kind)
            fn = node.get("fn")
            if not isinstance(fn, str) or fn not in FUNCTION_ARITY:
                raise Refused("function %r is not allowed (allowed: %s)" % (fn, ", ".join(FUNCTION_ARITY)))
            args = node.get("args")
            if not isinstance(args, list) or len(args) != FUNCTION_ARITY[fn]:
                raise Refused("'%s' takes %d argument(s)" % (fn, FUNCTION_ARITY[fn]))
            built = [self.expr(a, depth + 1) for a in args]
            return _FUNCTIONS()[fn](*built)
        raise Refused("node kind %r is not allowed (allowed: num, sym, const, neg, bin, call)" % (kind,))

    def equation(self, node):
        if not isinstance(node, dict):
            raise Refused("expected an equation {lhs, rhs}")
        _only(set(node.keys()), {"lhs", "rhs"}, "equation")
        if "lhs" not in node or "rhs" not in node:
            raise Refused("an equation needs lhs and rhs")
        return self.expr(node["lhs"]), self.expr(node["rhs"])


def _only(keys, allowed, kind):
    extra = keys - allowed
    if extra:
        raise Refused("unexpected field(s) %s in a %s node" % (", ".join(sorted(map(str, extra))), kind))


_FN_CACHE = {}


def _FUNCTIONS():
    if not _FN_CACHE:
        _FN_CACHE.update({
            "sqrt": sp.sqrt, "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "asin": sp.asin,
            "acos": sp.acos, "atan": sp.atan, "exp": sp.exp, "log": sp.log, "Abs": sp.Abs,
        })
    return _FN_CACHE


def ast_names(node, out=None, depth=0):
    """Symbol names in an AST (bounded walk; validation proper happens in Builder)."""
    if out is None:
        out = []
    if depth > MAX_DEPTH + 2:
        raise Refused("expression nested more than %d levels deep" % MAX_DEPTH)
    if isinstance(node, dict):
        if node.get("kind") == "sym" and isinstance(node.get("name"), str) and NAME_RE.match(node["name"]):
            if node["name"] not in out:
                out.append(node["name"])
        for k in ("arg", "left", "right", "lhs", "rhs"):
            if k in node:
                ast_names(node[k], out, depth + 1)
        if isinstance(node.get("args"), list):
            for a in node["args"]:
                ast_names(a, out, depth + 1)
    return out


# ---------------------------------------------------------------------------------------------
# SymPy -> AST (for results); None where the result leaves the grammar (I, oo, Piecewise, ...)
# ---------------------------------------------------------------------------------------------

class NotExpressible(Exception):
    pass


def _num(n):
    return {"kind": "num", "text": str(n)}


def to_ast(e):
    try:
        return _to_ast(e, 0)
    except (NotExpressible, RecursionError):
        return None


def _to_ast(e, depth):
    if depth > 200:
        raise NotExpressible()
    if e.is_Integer:
        return _num(e) if e >= 0 else {"kind": "neg", "arg": _num(-e)}
    if e.is_Rational:
        frac = {"kind": "bin", "op": "/", "left": _num(abs(e.p)), "right": _num(e.q)}
        return frac if e.p > 0 else {"kind": "neg", "arg": frac}
    if e is sp.pi:
        return {"kind": "const", "name": "pi"}
    if e is sp.E:
        return {"kind": "const", "name": "E"}
    if e.is_Symbol and not isinstance(e, sp.Dummy) and NAME_RE.match(e.name):
        return {"kind": "sym", "name": e.name}
    if e.is_Add:
        terms = list(sp.Add.make_args(e))
        # Put a positive term first where there is one: "u + w" rather than "-w + u" ordering noise.
        terms.sort(key=lambda t: 1 if t.could_extract_minus_sign() else 0)
        out = _to_ast(terms[0], depth + 1)
        for t in terms[1:]:
            if t.could_extract_minus_sign():
                out = {"kind": "bin", "op": "-", "left": out, "right": _to_ast(-t, depth + 1)}
            else:
                out = {"kind": "bin", "op": "+", "left": out, "right": _to_ast(t, depth + 1)}
        return out
    if e.is_Mul:
        if e.could_extract_minus_sign():
            return {"kind": "neg", "arg": _to_ast(-e, depth + 1)}
        num, den = [], []
        for f in sp.Mul.make_args(e):
            if f.is_Rational and f.q != 1:
                if f.p != 1:
                    num.append(sp.Integer(f.p))
                den.append(sp.Integer(f.q))
            elif f.is_Pow and f.exp.is_Rational and f.exp.is_negative:
                den.append(f.base ** (-f.exp))
            else:
                num.append(f)
        top = _product(num, depth) if num else _num(1)
        if not den:
            return top
        return {"kind": "bin", "op": "/", "left": top, "right": _product(den, depth)}
    if e.is_Pow:
        b, x = e.base, e.exp
        if x == sp.S.Half:
            return {"kind": "call", "fn": "sqrt", "args": [_to_ast(b, depth + 1)]}
        if x.is_Rational and x.is_negative:
            return {"kind": "bin", "op": "/", "left": _num(1), "right": _to_ast(b ** (-x), depth + 1)}
        if b is sp.E:
            return {"kind": "call", "fn": "exp", "args": [_to_ast(x, depth + 1)]}
        return {"kind": "bin", "op": "**", "left": _to_ast(b, depth + 1), "right": _to_ast(x, depth + 1)}
    if isinstance(e, sp.Function):
        name = type(e).__name__
        if name in FUNCTION_ARITY and len(e.args) == 1:
            return {"kind": "call", "fn": name, "args": [_to_ast(e.args[0], depth + 1)]}
    raise NotExpressible()


def _product(factors, depth):
    out = _to_ast(factors[0], depth + 1)
    for f in factors[1:]:
        out = {"kind": "bin", "op": "*", "left": out, "right": _to_ast(f, depth + 1)}
    return out


def show(e):
    """A result for the client: our AST where the value fits the grammar, plus SymPy's text (display only)."""
    return {"ast": to_ast(e), "text": sp.sstr(e), "latex": sp.latex(e)}


# ---------------------------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------------------------

def is_zero(e):
    """True only when SymPy shows e is identically 0 (under the symbols' assumptions).

    Cheap rewrites first, the general simplify last; the request's time limit bounds the whole.
    """
    if e == 0 or e.is_zero is True:
        return True
    # A variable e is affine in with a nonzero constant slope: e can't be identically zero.
    for x in e.free_symbols:
        slope = sp.diff(e, x)
        if slope.is_number and slope != 0:
            return False
    attempts = (
        lambda x: sp.expand(x),
        lambda x: sp.expand(sp.expand_trig(x)),
        lambda x: sp.cancel(sp.expand(sp.expand_trig(x))),
        lambda x: sp.expand(sp.expand_log(sp.powsimp(x), force=False)),
        lambda x: sp.trigsimp(sp.expand_trig(sp.together(x))),
        lambda x: sp.simplify(x),
        lambda x: sp.radsimp(sp.together(x)),
    )
    for f in attempts:
        r = f(e)
        if r == 0 or r.is_zero is True:
            return True
    return False


def admissible(x, value, ranges):
    """False when `value` provably can't be a value of x under x's assumptions/range; else True."""
    if value.is_real is False:
        return False
    if x.is_positive and value.is_positive is False:
        return False
    if x.is_nonnegative and value.is_nonnegative is False:
        return False
    if x.is_negative and value.is_negative is False:
        return False
    if x.is_nonzero and value.is_zero is True:
        return False
    rng = ranges.get(x.name)
    if rng is not None and value.is_number:
        lo, hi = rng
        if (value > lo) == sp.S.false or (value < hi) == sp.S.false:
            return False
    return True


def solutions_for(dp, x, ranges):
    """Every value of x solving dp = 0, as a list, or None where SymPy can't give the complete set.

    Sound by construction: the list may contain values that are not solutions (extra work for the
    caller) but never misses one, except where noted in the README (degenerate coefficients).
    """
    a = sp.diff(dp, x)
    if not a.has(x):
        # dp = a*x + b with a free of x: one solution when a is provably nonzero.
        if a.is_zero is False:
            b = dp.subs(x, 0)
            return [-b / a]
        return None
    if not _never_degenerate(dp, x):
        return None
    solved = sp.solveset(dp, x, domain=sp.S.Reals)
    finite = _finite_part(solved)
    if finite is None:
        return None
    out = []
    for s in finite:
        # A denominator that could vanish means solveset dropped a degenerate case: not complete.
        _, den = sp.fraction(sp.together(s))
        if den.has(*[v for v in dp.free_symbols if v != x]) and den.is_zero is not False:
            return None
        if admissible(x, s, ranges):
            out.append(s)
    return out


def _never_degenerate(dp, x):
    """True when the numerator of dp, as a polynomial in its x-dependent generators, has a
    coefficient that is provably nonzero, so no choice of the other variables makes dp = 0 hold for
    every x (a*x = a*y at a = 0). solveset silently drops such cases; without this proof we don't solve."""
    num = sp.numer(sp.together(dp))
    try:
        gens = [g for g in sp.Poly(num).gens if g.has(x)]
        if not gens:
            return False
        poly = sp.Poly(num, *gens)
    except (sp.PolynomialError, sp.GeneratorsNeeded, ValueError, TypeError):
        return False
    return any(c.is_zero is False for c in poly.coeffs())


def _finite_part(sset):
    if isinstance(sset, sp.FiniteSet):
        return list(sset)
    if isinstance(sset, (sp.Intersection, sp.Complement)):
        parts = [a for a in sset.args if isinstance(a, sp.FiniteSet)]
        if isinstance(sset, sp.Complement):
            parts = parts[:1] if isinstance(sset.args[0], sp.FiniteSet) else []
        if parts:
            return list(parts[0])
        return None
    if isinstance(sset, sp.Union):
        out = []
        for a in sset.args:
            part = _finite_part(a)
            if part is None:
                return None
            out.extend(part)
        return out
    return None


def op_prove_entailment(args):
    names = ast_names(args.get("premise")) + ast_names(args.get("conclusion"))
    symbols, ranges = make_symbols(args.get("domain"), names)
    b = Builder(symbols)
    pl, pr = b.equation(args.get("premise"))
    cl, cr = b.equation(args.get("conclusion"))
    dp = pl - pr
    dc = cl - cr
    if is_zero(dc):
        return {"result": "proved", "method": "conclusion-is-identity"}
    if dp == 0:
        return {"result": "unknown", "note": "the premise is an identity; the conclusion is not"}
    shared = [s for s in dc.free_symbols & dp.free_symbols]
    # Fewest occurrences in the premise first: a variable appearing once is the easiest to isolate.
    shared.sort(key=lambda s: (dp.count(s), s.name))
    tried = []
    for x in shared:
        sols = solutions_for(dp, x, ranges)
        if sols is None:
            tried.append("%s: no complete solution" % x.name)
            continue
        if all(is_zero(dc.subs(x, s)) for s in sols):
            return {
                "result": "proved",
                "method": "solve-substitute-simplify",
                "variable": x.name,
                "solutions": [sp.sstr(s) for s in sols],
            }
        tried.append("%s: difference not shown zero" % x.name)
    return {"result": "unknown", "note": "; ".join(tried) or "no variable shared by premise and conclusion"}


def op_solve_for(args):
    equations = args.get("equations")
    target = args.get("target")
    if not isinstance(equations, list) or not equations or len(equations) > 50:
        raise BadRequest("equations must be a non-empty list (at most 50)")
    if not isinstance(target, str) or not NAME_RE.match(target):
        raise BadRequest("target must be a variable name")
    eliminate = args.get("eliminate") or []
    if not isinstance(eliminate, list) or not all(isinstance(n, str) and NAME_RE.match(n) for n in eliminate):
        raise BadRequest("eliminate must be a list of variable names")
    names = [target] + list(eliminate)
    for eq in equations:
        names += ast_names(eq)
    symbols, ranges = make_symbols(args.get("domain"), names)
    b = Builder(symbols)
    built = [b.equation(eq) for eq in equations]
    x = symbols[target]
    out = []
    if eliminate:
        unknowns = [x] + [symbols[n] for n in eliminate]
        sols = sp.solve([l - r for l, r in built], unknowns, dict=True)
        values = [s[x] for s in sols if x in s and admissible(x, s[x], ranges)]
        values = [v for v in values if not v.has(*unknowns)]
        out.append({"equation": "system", "solutions": [show(sp.simplify(v)) for v in values], "complete": None})
        return {"target": target, "results": out}
    for i, (l, r) in enumerate(built):
        d = l - r
        if not d.has(x):
            continue
        sols = solutions_for(d, x, ranges)
        complete = sols is not None
        if sols is None:
            raw = sp.solve(d, x)  # may miss solutions (periodic ones): marked incomplete
            sols = [s for s in raw if admissible(x, s, ranges)]
        sols = [sp.simplify(s) for s in sols]
        out.append({"equation": i, "solutions": [show(s) for s in sols], "complete": complete})
    return {"target": target, "results": out}


def op_limits(args):
    large, small = args.get("large"), args.get("small")
    for n in (large, small):
        if not isinstance(n, str) or not NAME_RE.match(n):
            raise BadRequest("large and small must be variable names")
    if large == small:
        raise BadRequest("large and small must be different variables")
    names = [large, small]
    if args.get("expr") is not None:
        names += ast_names(args["expr"])
    if args.get("equation") is not None:
        names += ast_names(args["equation"])
    symbols, ranges = make_symbols(args.get("domain"), names)
    b = Builder(symbols)
    exprs = []
    if args.get("expr") is not None:
        exprs = [b.expr(args["expr"])]
    elif args.get("equation") is not None:
        target = args.get("target")
        if not isinstance(target, str) or target not in symbols:
            raise BadRequest("limits of an equation need the target variable")
        l, r = b.equation(args["equation"])
        x = symbols[target]
        if l == x and not r.has(x):
            exprs = [r]
        elif r == x and not l.has(x):
            exprs = [l]
        else:
            sols = solutions_for(l - r, x, ranges) or [s for s in sp.solve(l - r, x) if admissible(x, s, ranges)]
            exprs = sols
    else:
        raise BadRequest("limits needs expr, or equation and target")
    L, s = symbols[large], symbols[small]
    eps = sp.Dummy("epsilon", positive=True)
    results = []
    for f in exprs:
        # small = eps*large, eps -> 0+: the leading behaviour when `large` dominates `small`.
        g = f.subs(s, eps * L)
        item = {"expr": show(f)}
        try:
            lim = sp.limit(g, eps, 0, "+")
            item["limit"] = show(sp.simplify(lim))
        except (NotImplementedError, ValueError, TypeError) as exc:
            item["limit"] = None
            item["limitNote"] = "SymPy could not take the limit: %s" % exc
        try:
            ser = sp.series(g, eps, 0, 3).removeO()
            item["series"] = show(sp.simplify(sp.expand(ser.subs(eps, s / L))))
        except (NotImplementedError, ValueError, TypeError, AttributeError) as exc:
            item["series"] = None
            item["seriesNote"] = "SymPy could not expand it: %s" % exc
        results.append(item)
    return {"large": large, "small": small, "substitution": "%s = eps*%s, eps -> 0+" % (small, large), "results": results}


def op_simplify(args):
    names = []
    if args.get("expr") is not None:
        names = ast_names(args["expr"])
    elif args.get("equation") is not None:
        names = ast_names(args["equation"])
    else:
        raise BadRequest("simplify needs expr or equation")
    symbols, _ = make_symbols(args.get("domain"), names)
    b = Builder(symbols)
    if args.get("expr") is not None:
        return {"expr": show(sp.simplify(b.expr(args["expr"])))}
    l, r = b.equation(args["equation"])
    return {"lhs": show(l if l.is_Symbol else sp.simplify(l)), "rhs": show(r if r.is_Symbol else sp.simplify(r))}


def op_ping(args):
    return {"pong": True}


def op_debug_sleep(args):
    ms = args.get("ms", 0)
    end = time.monotonic() + float(ms) / 1000.0
    while time.monotonic() < end:
        time.sleep(0.01)
    return {"slept": ms}


def op_debug_alloc(args):
    blocks = []
    for _ in range(int(args.get("mb", 0))):
        blocks.append(bytearray(1024 * 1024))
    return {"allocated": len(blocks)}


def op_debug_block(args):
    # Stands in for a long computation inside C code, where the interval timer can't interrupt it.
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
    try:
        time.sleep(float(args.get("ms", 60000)) / 1000.0)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM])
    return {"blocked": True}


def op_debug_exit(args):
    os._exit(int(args.get("code", 9)))


OPS = {
    "ping": op_ping,
    "prove_entailment": op_prove_entailment,
    "solve_for": op_solve_for,
    "limits": op_limits,
    "simplify": op_simplify,
}
DEBUG_OPS = {"debug_sleep": op_debug_sleep, "debug_block": op_debug_block, "debug_alloc": op_debug_alloc, "debug_exit": op_debug_exit}


def _on_alarm(signum, frame):
    raise Timeout()


def handle(line, ops):
    """Answer one request line. Returns (answer, exit_after)."""
    started = time.monotonic()
    rid = None
    try:
        try:
            req = json.loads(line)
        except RecursionError:
            return {"id": None, "ok": False, "error": {"code": "too-complex", "message": "request nested too deeply (the expression limit is %d levels)" % MAX_DEPTH}}, False
        except ValueError:
            return {"id": None, "ok": False, "error": {"code": "bad-request", "message": "request is not valid JSON"}}, False
        if not isinstance(req, dict):
            return {"id": None, "ok": False, "error": {"code": "bad-request", "message": "request must be an object"}}, False
        rid = req.get("id")
        op = req.get("op")
        fn = ops.get(op) if isinstance(op, str) else None
        if fn is None:
            raise Refused("unknown operation %r (allowed: %s)" % (op, ", ".join(sorted(ops))))
        args = req.get("args") or {}
        if not isinstance(args, dict):
            raise BadRequest("args must be an object")
        timeout_ms = req.get("timeout_ms", 5000)
        if not isinstance(timeout_ms, (int, float)) or timeout_ms <= 0:
            raise BadRequest("timeout_ms must be a positive number")
        signal.setitimer(signal.ITIMER_REAL, float(timeout_ms) / 1000.0)
        try:
            result = fn(args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return {"id": rid, "ok": True, "result": result, "ms": _ms(started)}, False
    except Timeout:
        return {"id": rid, "ok": False, "error": {"code": "timeout", "message": "SymPy gave up after the time limit (%s ms)" % _ms(started)}, "ms": _ms(started)}, False
    except MemoryError:
        return {"id": rid, "ok": False, "error": {"code": "memory", "message": "SymPy ran out of memory (the worker's memory limit); the worker restarts"}, "ms": _ms(started)}, True
    except RecursionError:
        return {"id": rid, "ok": False, "error": {"code": "too-complex", "message": "expression too deeply nested for SymPy"}, "ms": _ms(started)}, False
    except (Refused, BadRequest) as exc:
        return {"id": rid, "ok": False, "error": {"code": exc.code, "message": str(exc)}, "ms": _ms(started)}, False
    except Exception as exc:  # a SymPy failure on an accepted input: report it, keep serving
        return {"id": rid, "ok": False, "error": {"code": "failed", "message": "SymPy failed: %s: %s" % (type(exc).__name__, str(exc)[:300])}, "ms": _ms(started)}, False


def _ms(started):
    return int((time.monotonic() - started) * 1000)


def main():
    global sp
    opts = _parse_args(sys.argv[1:])
    _set_memory_limit(opts["memory_mb"])
    sys.setrecursionlimit(4000)
    try:
        import sympy  # noqa: E402  (imported after the memory limit on purpose)

        sp = sympy
    except ImportError as exc:
        _write({"ready": False, "code": "no-sympy", "message": "SymPy is not installed for %s (%s)" % (sys.executable, exc)})
        sys.exit(3)
    signal.signal(signal.SIGALRM, _on_alarm)
    ops = dict(OPS)
    if opts["debug_ops"]:
        ops.update(DEBUG_OPS)
    _write({
        "ready": True, "protocol": PROTOCOL, "sympy": sympy.__version__,
        "python": "%d.%d.%d" % sys.version_info[:3], "pid": os.getpid(), "memoryMb": opts["memory_mb"],
    })
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            # Drain the rest of the oversized line, then refuse it.
            while True:
                more = stdin.readline(MAX_LINE_BYTES)
                if not more or more.endswith(b"\n"):
                    break
            _write({"id": None, "ok": False, "error": {"code": "refused", "message": "request larger than %d bytes" % MAX_LINE_BYTES}})
            continue
        if not line.strip():
            continue
        answer, exit_after = handle(line.decode("utf-8", "replace"), ops)
        try:
            _write(answer)
        except MemoryError:
            _write({"id": answer.get("id"), "ok": False, "error": {"code": "memory", "message": "SymPy ran out of memory"}})
            exit_after = True
        if exit_after:
            sys.exit(4)


if __name__ == "__main__":
    main()
