// `equimark check`: whether EQ1 entails EQ2 and EQ2 entails EQ1 under a question's assumptions.
import { parseEquation, formatErrors, equationToSympy } from '../../../shared/equation/index.ts';
import { questionDomain } from '../../../shared/exam.ts';
import { verdictLine } from '../../../shared/format/verdict.ts';
import { loadExamFile } from '../../engine/io/exam.ts';
import { parseArgs, UsageError } from '../args.ts';
import { InputError, need, type Io } from '../io.ts';
import { withEngine } from '../engine.ts';
import { checkDimensions, type DimensionCheck } from '../../engine/decide/dimensions.ts';

/** One line on an equation's dimensions (only when the question declares units). */
function dimensionLine(label: string, c: DimensionCheck): string {
  if (c.status === 'unchecked') return `${label} dimensions: unchecked (${c.reason})`;
  if (c.status === 'consistent') return `${label} dimensions: consistent, ${c.note}`;
  return `${label} dimensions: INCONSISTENT: ${c.note}`;
}

export async function cmdCheck(argv: string[], io: Io): Promise<number> {
  const { opts, flags, positionals } = parseArgs(argv, { values: ['exam', 'question'], flags: ['json'] });
  const exam = loadExamFile(need(opts, 'exam', 'check'));
  const qid = need(opts, 'question', 'check');
  const cq = exam.questions.get(qid);
  if (!cq) throw new InputError(`question '${qid}' is not in the exam (questions: ${[...exam.questions.keys()].join(', ')})`);
  if (positionals.length !== 2) throw new UsageError(`check: give exactly two equations, got ${positionals.length}`);
  const parsed = positionals.map((src) => ({ src, r: parseEquation(src, { variables: cq.variables }) }));
  const errors = parsed.flatMap((p, i) => (p.r.ok ? [] : [{ equation: `EQ${i + 1}`, source: p.src, error: formatErrors(p.r.errors) }]));
  if (errors.length) {
    if (flags.has('json')) io.out(`${JSON.stringify({ question: qid, errors }, null, 2)}\n`);
    else for (const e of errors) io.err(`${e.equation} ${JSON.stringify(e.source)}: ${e.error}\n`);
    return 1;
  }
  const [a, b] = parsed.map((p) => (p.r.ok ? p.r.value : null!));
  const domain = questionDomain(cq.question);
  const units = cq.units?.bySymbol;
  const dimensions: { dimensions1?: DimensionCheck; dimensions2?: DimensionCheck } =
    units && units.size ? { dimensions1: checkDimensions(a, units), dimensions2: checkDimensions(b, units) } : {};
  const result = await withEngine(async (engine) => ({
    question: qid,
    assumptions: domain.variables.map((v) => ({ name: v.name, assumptions: v.assumptions ?? [], range: v.range })),
    eq1: equationToSympy(a),
    eq2: equationToSympy(b),
    consistent1: await engine.consistent(a, domain),
    consistent2: await engine.consistent(b, domain),
    forward: await engine.entails(a, b, domain),
    backward: await engine.entails(b, a, domain),
    ...dimensions,
  }));
  if (flags.has('json')) {
    io.out(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const ass = result.assumptions
    .map((v) => `${v.name}${v.assumptions.length ? ` ${v.assumptions.join(',')}` : ' real'}${v.range ? ` in (${v.range.join(', ')})` : ''}`)
    .join('; ');
  const cons = (c: typeof result.consistent1): string =>
    c.satisfiable === true
      ? 'yes'
      : c.satisfiable === false
        ? `NO: inconsistent, entails nothing (${c.method}${c.note ? `; ${c.note}` : ''})`
        : `unknown (${c.method})`;
  io.out(
    [
      `question ${qid}: ${ass}`,
      `EQ1 ${result.eq1}   consistent: ${cons(result.consistent1)}`,
      `EQ2 ${result.eq2}   consistent: ${cons(result.consistent2)}`,
      `EQ1 => EQ2: ${verdictLine(result.forward)}`,
      `EQ2 => EQ1: ${verdictLine(result.backward)}`,
      `equivalent: ${result.forward.holds === true && result.backward.holds === true ? 'yes' : result.forward.holds === false || result.backward.holds === false ? 'no' : 'undecided'}`,
      ...(result.dimensions1 ? [dimensionLine('EQ1', result.dimensions1)] : []),
      ...(result.dimensions2 ? [dimensionLine('EQ2', result.dimensions2)] : []),
      '',
    ].join('\n'),
  );
  return 0;
}
