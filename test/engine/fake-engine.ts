// A small table-driven entailment engine for unit tests: entailment holds when the premise and
// conclusion print the same, or when the pair is listed; equations listed as inconsistent are
// unsatisfiable; pairs listed as unknown are undecided. Records every call.
import { equationToSympy, type Equation } from '../../shared/equation/index.ts';
import type { EntailmentEngine, ListComparison, Verdict, Consistency, Domain } from '../../electron/engine/decide/entail/types.ts';

export class FakeEngine implements EntailmentEngine {
  calls: string[] = [];
  constructor(
    private readonly holds: [string, string][] = [],
    private readonly inconsistent: string[] = [],
    private readonly unknown: [string, string][] = [],
  ) {}
  private has(list: [string, string][], a: string, b: string): boolean {
    return list.some(([x, y]) => x === a && y === b);
  }
  async entails(p: Equation, c: Equation, _d: Domain): Promise<Verdict> {
    const a = equationToSympy(p);
    const b = equationToSympy(c);
    this.calls.push(`${a} => ${b}`);
    if (this.inconsistent.includes(a)) return { holds: false, method: 'vacuous-premise' };
    if (a === b) return { holds: true, method: 'identical' };
    if (this.has(this.holds, a, b)) return { holds: true, method: 'z3-proved' };
    if (this.has(this.unknown, a, b)) return { holds: null, method: 'unknown', note: 'timed out' };
    return { holds: false, method: 'z3-refuted', counterexample: { x: '1' } };
  }
  async consistent(eq: Equation, _d: Domain): Promise<Consistency> {
    return this.inconsistent.includes(equationToSympy(eq)) ? { satisfiable: false, method: 'z3' } : { satisfiable: true, method: 'z3' };
  }
  async compareLists(a: Equation[], b: Equation[], d: Domain): Promise<ListComparison> {
    const cover = async (x: Equation[], y: Equation[]): Promise<number[]> => {
      const out: number[] = [];
      for (const e of x) {
        let k = -1;
        for (let i = 0; i < y.length && k < 0; i++) if ((await this.entails(y[i], e, d)).holds) k = i;
        out.push(k);
      }
      return out;
    };
    const aCoveredBy = await cover(a, b);
    const bCoveredBy = await cover(b, a);
    const equivalent = a.length === 0 && b.length === 0 ? true : a.length > 0 && b.length > 0 && !aCoveredBy.includes(-1) && !bCoveredBy.includes(-1);
    return { equivalent, aCoveredBy, bCoveredBy };
  }
  stats() {
    return { pairs: this.calls.length, cacheHits: 0, z3Calls: 0, decidedWithoutZ3: 0 };
  }
  async close(): Promise<void> {}
}
