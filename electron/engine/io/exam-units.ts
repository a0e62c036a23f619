// The exam's units, constants and given values (exam.v1, issue 15): checked when the exam is
// loaded, each problem with its JSON path (`questions[0].variables[2].unit: unknown unit 'mps'`),
// and compiled per question into the units by symbol (a variable's own unit, else the exam
// constant of the same name) and the values known for symbols (the question's given values, then
// the exam's constants), in SI base units, for dimension checks and numeric items.
import type { Constant, Exam, Question, SchemeItem } from '../../../shared/exam.ts';
import { formatDimension, sameDimension } from '../../../shared/units/dimension.ts';
import { parseUnit, type Unit } from '../../../shared/units/parse-unit.ts';
import type { KnownValue } from '../decide/numeric.ts';

type Problem = { path: string; message: string };

export type QuestionUnits = {
  /** Symbol -> its unit (variables' own, else the exam constant's of that name). */
  bySymbol: Map<string, Unit>;
  /** Symbol -> its unit as written in the exam. */
  written: Map<string, string>;
  /** Symbol -> value in SI (given by the question, else an exam constant). */
  values: Map<string, KnownValue>;
};

const unitOf = (text: string | undefined): Unit | null => {
  if (text === undefined) return null;
  const p = parseUnit(text);
  return p.ok ? p.unit : null;
};

/** Check the exam's constants (unique names, units that parse); the valid ones by name. */
export function validateConstants(exam: Exam, problems: Problem[]): Map<string, Constant> {
  const out = new Map<string, Constant>();
  (exam.constants ?? []).forEach((c, ci) => {
    const at = `constants[${ci}]`;
    if (out.has(c.name)) problems.push({ path: `${at}.name`, message: `duplicate constant '${c.name}'` });
    const p = parseUnit(c.unit);
    if (!p.ok) problems.push({ path: `${at}.unit`, message: p.error });
    else out.set(c.name, c);
  });
  return out;
}

/** Units of the question's variables and given values parse, given names are variables, and their dimensions agree. */
export function questionUnitProblems(q: Question, at: string): Problem[] {
  const problems: Problem[] = [];
  const names = q.variables.map((v) => v.name);
  q.variables.forEach((v, vi) => {
    if (v.unit === undefined) return;
    const p = parseUnit(v.unit);
    if (!p.ok) problems.push({ path: `${at}.variables[${vi}].unit`, message: p.error });
  });
  const seen = new Set<string>();
  (q.given ?? []).forEach((g, gi) => {
    const gp = `${at}.given[${gi}]`;
    const v = q.variables.find((x) => x.name === g.name);
    if (!v) problems.push({ path: `${gp}.name`, message: `'${g.name}' is not a variable of this question (${names.join(', ')})` });
    if (seen.has(g.name)) problems.push({ path: `${gp}.name`, message: `'${g.name}' is given twice` });
    seen.add(g.name);
    if (g.unit === undefined) return;
    const p = parseUnit(g.unit);
    if (!p.ok) problems.push({ path: `${gp}.unit`, message: p.error });
    const vu = unitOf(v?.unit);
    if (p.ok && vu && !sameDimension(p.unit.dimension, vu.dimension))
      problems.push({
        path: `${gp}.unit`,
        message: `'${g.unit}' is ${formatDimension(p.unit.dimension)}, but ${g.name}'s unit '${v!.unit}' is ${formatDimension(vu.dimension)}`,
      });
  });
  return problems;
}

/** A numeric item: `numeric` is there, its quantity is a variable, its unit parses and has the quantity's dimension. */
export function numericProblems(q: Question, item: SchemeItem, ip: string, constants: ReadonlyMap<string, Constant>): Problem[] {
  const spec = item.numeric;
  if (!spec) return [{ path: `${ip}.numeric`, message: 'a numeric item needs \'numeric\': {"value": ..., "unit": ...} (the expected value)' }];
  const problems: Problem[] = [];
  const quantity = spec.quantity ?? q.target;
  const v = q.variables.find((x) => x.name === quantity);
  if (quantity === undefined) problems.push({ path: `${ip}.numeric.quantity`, message: 'name the variable the value is for (or give the question a target)' });
  else if (!v)
    problems.push({
      path: `${ip}.numeric${spec.quantity !== undefined ? '.quantity' : ''}`,
      message: `'${quantity}' is not a variable of this question (${q.variables.map((x) => x.name).join(', ')})`,
    });
  const p = parseUnit(spec.unit);
  if (!p.ok) problems.push({ path: `${ip}.numeric.unit`, message: p.error });
  const vu = unitOf(v?.unit ?? (quantity !== undefined ? constants.get(quantity)?.unit : undefined));
  if (p.ok && vu && !sameDimension(p.unit.dimension, vu.dimension))
    problems.push({
      path: `${ip}.numeric.unit`,
      message: `'${spec.unit}' is ${formatDimension(p.unit.dimension)}, but ${quantity}'s unit is ${formatDimension(vu.dimension)}`,
    });
  return problems;
}

/** An item requiring dimensional consistency needs a unit on every variable of the question. */
export function requireDimensionsProblems(q: Question, ip: string, constants: ReadonlyMap<string, Constant>): Problem[] {
  const missing = q.variables.filter((v) => v.unit === undefined && !constants.has(v.name)).map((v) => v.name);
  return missing.length
    ? [
        {
          path: `${ip}.require_dimensions`,
          message: `dimensions can be checked only where every variable has a unit; ${missing.join(', ')} ha${missing.length === 1 ? 's' : 've'} none`,
        },
      ]
    : [];
}

/** The question's units and known values, or undefined when the exam declares none for it. */
export function questionUnits(q: Question, constants: ReadonlyMap<string, Constant>): QuestionUnits | undefined {
  const bySymbol = new Map<string, Unit>();
  const written = new Map<string, string>();
  const values = new Map<string, KnownValue>();
  for (const v of q.variables) {
    const text = v.unit ?? constants.get(v.name)?.unit;
    const u = unitOf(text);
    if (u && text !== undefined) {
      bySymbol.set(v.name, u);
      written.set(v.name, text);
    }
  }
  for (const g of q.given ?? []) {
    const text = g.unit ?? written.get(g.name);
    const u = unitOf(text);
    values.set(g.name, { si: g.value * (u?.factor ?? 1), written: text ? `${g.value} ${text}` : String(g.value), unitKnown: !!u });
  }
  for (const v of q.variables) {
    const c = constants.get(v.name);
    if (!c || values.has(v.name)) continue;
    const u = unitOf(c.unit);
    values.set(v.name, { si: c.value * (u?.factor ?? 1), written: `${c.value} ${c.unit}`, unitKnown: !!u });
  }
  if (bySymbol.size === 0 && values.size === 0) return undefined;
  return { bySymbol, written, values };
}
