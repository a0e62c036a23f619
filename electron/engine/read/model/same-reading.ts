// Whether two readings of the same piece of text are the same equation written differently
// (`m*v**2/2` and `(1/2)*m*v**2`; the sides swapped; a common factor): their residuals
// (lhs - rhs) are a constant non-zero multiple of each other at sampled points. A cheap check for
// comparing the model's reading of a span with the embedded extractor's when no entailment engine
// is given; it never says two different equations are the same unless they are proportional
// everywhere we looked (sampling, not proof: used only to accept agreement, never to award marks).
import type { Equation } from '../../../../shared/equation/index.ts';
import { compileEquation } from '../../decide/entail/numeric-eval.ts';
import { mulberry32 } from '../../decide/entail/rng.ts';
import { symbolsOfExpr } from './guards.ts';

const symbols = (eq: Equation): string[] => {
  const s = new Set<string>();
  symbolsOfExpr(eq.lhs, s);
  symbolsOfExpr(eq.rhs, s);
  return [...s].sort();
};

export function sameReading(a: Equation, b: Equation, points = 8): boolean {
  const sa = symbols(a);
  if (sa.join(',') !== symbols(b).join(',')) return false;
  const ca = compileEquation(a);
  const cb = compileEquation(b);
  const rng = mulberry32(20240611);
  let ratio: number | null = null;
  let used = 0;
  for (let i = 0; i < points * 3 && used < points; i++) {
    const env: Record<string, number> = {};
    for (const s of sa) env[s] = 0.3 + 2.7 * rng();
    const [ra, ma] = ca.residual(env);
    const [rb, mb] = cb.residual(env);
    if (!Number.isFinite(ra) || !Number.isFinite(rb)) continue;
    const za = Math.abs(ra) <= 1e-12 * Math.max(ma, 1e-300);
    const zb = Math.abs(rb) <= 1e-12 * Math.max(mb, 1e-300);
    if (za !== zb) return false;
    used++;
    if (za) continue;
    const r = ra / rb;
    if (ratio === null) ratio = r;
    else if (Math.abs(r - ratio) > 1e-8 * Math.max(1, Math.abs(ratio))) return false;
  }
  return used >= 3;
}
