// Exam import and export (format exam.v1, see ../shared/data/README.md). Import validates the
// JSON with the zod schema and then parses every accepted form and the answer with the strict
// equation parser against the question's variables, so a bad exam is rejected up front with
// errors that name the place: `questions[1].scheme[2].accept[0]: symbol 'U' is not a variable...`.
import { readFileSync } from 'node:fs';
import {
  ConstantSchema,
  ExamSchema,
  GivenValueSchema,
  NumericExpectationSchema,
  QuestionSchema,
  SchemeItemSchema,
  VariableSchema,
  type Exam,
  type Question,
} from '../../../shared/exam.ts';
import { parseEquation, formatErrors, symbolsOf, type Equation } from '../../../shared/equation/index.ts';
import { numericProblems, questionUnitProblems, questionUnits, requireDimensionsProblems, validateConstants, type QuestionUnits } from './exam-units.ts';
import { resultQuantity } from '../decide/follow-through.ts';

/** One problem found in an exam file; `path` is like `questions[1].scheme[2].accept[0]`. */
export type ExamProblem = { path: string; message: string };

export class ExamError extends Error {
  constructor(
    readonly problems: ExamProblem[],
    readonly file?: string,
  ) {
    super(`${file ? `${file}: ` : ''}invalid exam:\n${problems.map((p) => `  ${p.path || '(top level)'}: ${p.message}`).join('\n')}`);
    this.name = 'ExamError';
  }
}

/** A question with its accepted forms and answer already parsed (ASTs, by scheme item). */
export type CompiledQuestion = {
  question: Question;
  /** Parsed accepted forms per scheme item id (empty for manual items). */
  accept: Map<string, Equation[]>;
  answer?: Equation;
  variables: string[];
  /** Units by symbol and known values (given, constants), where the exam declares them (exam-units.ts). */
  units?: QuestionUnits;
};

export type LoadedExam = { exam: Exam; questions: Map<string, CompiledQuestion> };

function zodPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** The keys an exam.v1 object may have, by where it sits (exam, question, variable, scheme item). */
function knownKeysAt(path: readonly PropertyKey[]): string[] {
  const last = path.length >= 2 ? path[path.length - 2] : undefined;
  if (path.length === 0) return Object.keys(ExamSchema.shape);
  if (path[path.length - 1] === 'numeric') return Object.keys(NumericExpectationSchema.shape);
  if (last === 'constants') return Object.keys(ConstantSchema.shape);
  if (last === 'given') return Object.keys(GivenValueSchema.shape);
  if (last === 'questions') return Object.keys(QuestionSchema.shape);
  if (last === 'variables') return Object.keys(VariableSchema.shape);
  if (last === 'scheme') return Object.keys(SchemeItemSchema.shape);
  return [];
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps), case-insensitive. */
function distance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known key nearest to a misspelt one, when it is near enough to be a likely slip. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const dd = distance(key, k);
    if (dd < bestD) [best, bestD] = [k, dd];
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

/** Schema issues as problems: one per unknown key (with the nearest known key), numbers said plainly. */
function schemaProblems(
  issues: readonly { code: string; path: readonly PropertyKey[]; message: string; keys?: readonly string[]; received?: unknown }[],
): ExamProblem[] {
  const out: ExamProblem[] = [];
  for (const i of issues) {
    if (i.code === 'unrecognized_keys' && i.keys) {
      const known = knownKeysAt(i.path);
      for (const key of i.keys) {
        const near = nearestKey(key, known);
        out.push({
          path: zodPath([...i.path, key]),
          message: `unknown key ${JSON.stringify(key)}: ${near ? `did you mean ${JSON.stringify(near)}? ` : ''}exam.v1 allows ${known.map((k) => JSON.stringify(k)).join(', ')} here; rename or remove it`,
        });
      }
    } else if (i.code === 'invalid_type' && (i.received === 'Infinity' || i.received === 'NaN')) {
      out.push({ path: zodPath(i.path), message: 'must be a finite number (a number this large cannot be represented)' });
    } else out.push({ path: zodPath(i.path), message: i.message });
  }
  return out;
}

/** Validate an exam object (already JSON-parsed). Throws ExamError listing every problem. */
export function validateExam(data: unknown, file?: string): LoadedExam {
  const r = ExamSchema.safeParse(data);
  if (!r.success) throw new ExamError(schemaProblems(r.error.issues as never), file);
  const exam = r.data;
  const problems: ExamProblem[] = [];
  const questions = new Map<string, CompiledQuestion>();
  const constants = validateConstants(exam, problems);
  exam.questions.forEach((q, qi) => {
    const at = `questions[${qi}]`;
    if (questions.has(q.id)) problems.push({ path: `${at}.id`, message: `duplicate question id '${q.id}'` });
    const variables = q.variables.map((v) => v.name);
    const seenVar = new Set<string>();
    q.variables.forEach((v, vi) => {
      if (seenVar.has(v.name)) problems.push({ path: `${at}.variables[${vi}].name`, message: `duplicate variable '${v.name}'` });
      seenVar.add(v.name);
      // A name the grammar can't take as a symbol ('lambda', a Python word) could never be read or marked.
      const asSymbol = parseEquation(`Eq(${v.name}, 0)`, { variables });
      if (!asSymbol.ok)
        problems.push({
          path: `${at}.variables[${vi}].name`,
          message: `'${v.name}' can't be a variable name (${asSymbol.errors[0]?.message ?? 'not a symbol'}): choose another, such as '${v.name}_0' or '${v.name.slice(0, 3)}'`,
        });
      if (v.range && !(v.range[0] < v.range[1]))
        problems.push({ path: `${at}.variables[${vi}].range`, message: `range [${v.range.join(', ')}] is empty: low must be below high` });
    });
    if (q.target !== undefined && !seenVar.has(q.target))
      problems.push({ path: `${at}.target`, message: `target '${q.target}' is not a variable of this question (${variables.join(', ')})` });
    const accept = new Map<string, Equation[]>();
    const seenItem = new Set<string>();
    q.scheme.forEach((item, si) => {
      const ip = `${at}.scheme[${si}]`;
      if (seenItem.has(item.id)) problems.push({ path: `${ip}.id`, message: `duplicate scheme item id '${item.id}'` });
      seenItem.add(item.id);
      if (item.manual) {
        if (item.match) problems.push({ path: `${ip}.match`, message: 'a manual item has no match rule' });
        accept.set(item.id, []);
        return;
      }
      if (!item.match)
        problems.push({ path: `${ip}.match`, message: "an automatic item needs match 'implied', 'equivalent', 'answer' or 'numeric' (or manual: true)" });
      if (item.match === 'answer' && q.target === undefined)
        problems.push({ path: `${ip}.match`, message: "match 'answer' needs the question's target variable" });
      if (item.numeric && item.match !== 'numeric')
        problems.push({ path: `${ip}.numeric`, message: "only an item with match 'numeric' has 'numeric'; remove it or set match to 'numeric'" });
      if (item.match === 'numeric') problems.push(...numericProblems(q, item, ip, constants));
      else if (item.accept.length === 0) problems.push({ path: `${ip}.accept`, message: 'an automatic item needs at least one accepted form' });
      if (item.require_dimensions) problems.push(...requireDimensionsProblems(q, ip, constants));
      const forms: Equation[] = [];
      item.accept.forEach((src, ai) => {
        const p = parseEquation(src, { variables });
        if (p.ok) forms.push(p.value);
        else problems.push({ path: `${ip}.accept[${ai}]`, message: formatErrors(p.errors) });
      });
      accept.set(item.id, forms);
    });
    problems.push(...followThroughProblems(q, accept, at));
    let answer: Equation | undefined;
    if (q.answer !== undefined) {
      const p = parseEquation(q.answer, { variables });
      if (p.ok) answer = p.value;
      else problems.push({ path: `${at}.answer`, message: formatErrors(p.errors) });
    }
    problems.push(...questionUnitProblems(q, at));
    const units = questionUnits(q, constants);
    questions.set(q.id, { question: q, accept, answer, variables, ...(units ? { units } : {}) });
  });
  if (problems.length) throw new ExamError(problems, file);
  return { exam, questions };
}

/**
 * Problems with the question's `follow_through` lists (decide/follow-through.ts has the rule): each
 * names an item of this question other than itself, once, whose result is for a variable
 * (`t = ...`) that some accepted form of the following item uses; no cycles.
 */
function followThroughProblems(q: Question, accept: ReadonlyMap<string, Equation[]>, at: string): ExamProblem[] {
  const out: ExamProblem[] = [];
  const ids = q.scheme.map((s) => s.id);
  q.scheme.forEach((item, si) => {
    const list = item.follow_through;
    if (!list) return;
    const ip = `${at}.scheme[${si}].follow_through`;
    if (item.manual || !item.match) {
      out.push({ path: ip, message: 'a manual item is marked by the instructor: it has no follow-through (remove follow_through)' });
      return;
    }
    if (item.match === 'numeric') {
      out.push({ path: ip, message: "follow-through is for 'implied', 'equivalent' and 'answer' items" });
      return;
    }
    const forms = accept.get(item.id) ?? [];
    const parsed = forms.length === item.accept.length;
    list.forEach((from, fi) => {
      const fp = `${ip}[${fi}]`;
      const c = q.scheme.find((s) => s.id === from);
      if (from === item.id) out.push({ path: fp, message: `an item can't follow through from itself ('${from}')` });
      else if (!c) out.push({ path: fp, message: `no item '${from}' in this question (its items: ${ids.join(', ')})` });
      else if (list.indexOf(from) !== fi) out.push({ path: fp, message: `'${from}' is listed twice` });
      else if (c.manual || !c.match)
        out.push({ path: fp, message: `item '${from}' is manual: the instructor marks it, so there is no result of the student's to carry forward` });
      else {
        const quantity = resultQuantity(c, accept.get(from) ?? [], q);
        if (!quantity)
          out.push({
            path: fp,
            message: `item '${from}' has no result to carry forward: its first accepted form must have one variable alone on one side (like Eq(t, u/g))`,
          });
        else if (parsed && item.match === 'answer' && forms.every((f) => symbolsOf(f).includes(quantity)))
          out.push({
            path: fp,
            message: `every accepted form of this answer item uses ${quantity}: add the final answer without ${quantity} (the forms that use it are relations, earned only with the student's own ${quantity} put in)`,
          });
        else if (parsed && !forms.some((f) => symbolsOf(f).includes(quantity)))
          out.push({
            path: fp,
            message: `item '${from}' gives ${quantity}, but none of this item's accepted forms uses ${quantity}: add the relation that uses it to accept (like Eq(v, a*t)), so the student's own ${quantity} can be put into it`,
          });
      }
    });
  });
  // Cycles (c follows through from d and d from c): reported once, at the item that closes each.
  const next = new Map(q.scheme.map((s) => [s.id, (s.follow_through ?? []).filter((x) => x !== s.id && ids.includes(x))]));
  const state = new Map<string, 'open' | 'done'>();
  const walk = (id: string, path: string[]): void => {
    state.set(id, 'open');
    for (const n of next.get(id) ?? []) {
      if (state.get(n) === 'open') {
        const si = ids.indexOf(id);
        const cycle = [...path.slice(path.indexOf(n)), id, n];
        out.push({
          path: `${at}.scheme[${si}].follow_through[${(q.scheme[si].follow_through ?? []).indexOf(n)}]`,
          message: `follow-through cycle: ${cycle.join(' → ')} (an item can't depend on its own result)`,
        });
      } else if (!state.has(n)) walk(n, [...path, id]);
    }
    state.set(id, 'done');
  };
  for (const id of ids) if (!state.has(id)) walk(id, []);
  return out;
}

/** Parse exam JSON text. Throws ExamError (bad JSON is reported with its position). */
export function parseExamJson(text: string, file?: string): LoadedExam {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new ExamError([{ path: '', message: `not valid JSON: ${(e as Error).message}` }], file);
  }
  return validateExam(data, file);
}

/** Read and validate an exam file. */
export function loadExamFile(path: string): LoadedExam {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ExamError([{ path: '', message: `cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` }], path);
  }
  return parseExamJson(text, path);
}

/** The exam as exam.v1 JSON text (stable key order of the schema, two-space indent). */
export function exportExamJson(exam: Exam): string {
  return `${JSON.stringify(ExamSchema.parse(exam), null, 2)}\n`;
}
