// The unit of a variable the exam gives no `unit` for, inferred from its description the way a
// physicist reads one: "(m/s)" written in it, else the kind of quantity its description names
// ("speed of the block at displacement x" is a speed, "mass per unit length of the string" a
// linear density). Used only to doubt a reading (decide/symbol-reuse.ts), never for marks:
// a wrong inference can lower a reading's confidence, not change a mark. Where the description
// names no kind of quantity this table knows, or names it ambiguously ("amplitude", "field",
// "constant"), the variable has no inferred unit and equations with it are not checked. Pure.
import { parseUnit, type Unit } from './parse-unit.ts';

/** Kinds of quantity, longest phrases first so "angular speed" wins over "speed", "potential energy" over "potential". */
const KINDS: [phrase: string, unit: string][] = [
  // Phrases whose last word alone would name another kind.
  ['mass per unit length', 'kg/m'],
  ['linear density', 'kg/m'],
  ['moment of inertia', 'kg m^2'],
  ['specific heat capacity', 'J/(kg K)'],
  ['specific heat', 'J/(kg K)'],
  ['heat capacity', 'J/K'],
  ['latent heat', 'J/kg'],
  ['molar gas constant', 'J/(mol K)'],
  ['gas constant', 'J/(mol K)'],
  ['gravitational constant', 'm^3/(kg s^2)'],
  ["planck's constant", 'J s'],
  ['planck constant', 'J s'],
  ["boltzmann's constant", 'J/K'],
  ['boltzmann constant', 'J/K'],
  ['avogadro constant', '1/mol'],
  ["avogadro's constant", '1/mol'],
  ["avogadro's number", '1/mol'],
  ['avogadro number', '1/mol'],
  ['spring constant', 'N/m'],
  ['force constant', 'N/m'],
  ['time constant', 's'],
  ['decay constant', '1/s'],
  ['half-life', 's'],
  ['half life', 's'],
  ['angular speed', '1/s'],
  ['angular velocity', '1/s'],
  ['angular frequency', '1/s'],
  ['angular acceleration', '1/s^2'],
  ['angular momentum', 'kg m^2/s'],
  ['speed of light', 'm/s'],
  ['focal length', 'm'],
  ['refractive index', '1'],
  ['index of refraction', '1'],
  // A coefficient is a pure number only as the coefficients of friction, restitution, drag and
  // performance are; "linear attenuation coefficient" is per metre, "temperature coefficient of
  // resistance" per kelvin, "cubic coefficient of the force law" whatever the law needs: no unit.
  ['attenuation coefficient', '1/m'],
  ['absorption coefficient', '1/m'],
  ['coefficient of friction', '1'],
  ['coefficient of static friction', '1'],
  ['coefficient of kinetic friction', '1'],
  ['coefficient of sliding friction', '1'],
  ['coefficient of rolling friction', '1'],
  ['coefficient of rolling resistance', '1'],
  ['coefficient of restitution', '1'],
  ['coefficient of performance', '1'],
  ['friction coefficient', '1'],
  ['drag coefficient', '1'],
  // "number of moles of gas" is an amount of substance, not a count.
  ['number of moles', 'mol'],
  ['amount of substance', 'mol'],
  ['number of', '1'],
  ['potential energy', 'J'],
  ['kinetic energy', 'J'],
  ['work function', 'J'],
  ['potential difference', 'V'],
  ['stopping potential', 'V'],
  ['electric potential', 'V'],
  ['magnetic field', 'T'],
  ['magnetic flux density', 'T'],
  ['electric field', 'V/m'],
  ['permittivity of free space', 'F/m'],
  ['vacuum permittivity', 'F/m'],
  ['relative permittivity', '1'],
  ['permeability of free space', 'H/m'],
  ['vacuum permeability', 'H/m'],
  ['thermal conductivity', 'W/(m K)'],
  ['linear expansivity', '1/K'],
  ["young's modulus", 'Pa'],
  ['normal reaction', 'N'],
  ['reaction force', 'N'],
  ['vertical drop', 'm'],
  ['atomic number', '1'],
  ['mass number', '1'],
  ['harmonic number', '1'],
  ['quantum number', '1'],
  ['gravitational acceleration', 'm/s^2'],
  ['acceleration due to gravity', 'm/s^2'],
  ['gravitational field strength', 'm/s^2'],
  ['electron charge', 'C'],
  ['electron mass', 'kg'],
  // One word.
  ['speed', 'm/s'],
  ['velocity', 'm/s'],
  ['acceleration', 'm/s^2'],
  ['deceleration', 'm/s^2'],
  ['mass', 'kg'],
  ['time', 's'],
  ['period', 's'],
  ['lifetime', 's'],
  ['duration', 's'],
  ['distance', 'm'],
  ['length', 'm'],
  ['height', 'm'],
  ['depth', 'm'],
  ['width', 'm'],
  ['thickness', 'm'],
  ['radius', 'm'],
  ['diameter', 'm'],
  ['displacement', 'm'],
  ['compression', 'm'],
  ['extension', 'm'],
  ['wavelength', 'm'],
  ['separation', 'm'],
  ['range', 'm'],
  ['area', 'm^2'],
  ['volume', 'm^3'],
  ['density', 'kg/m^3'],
  ['force', 'N'],
  ['thrust', 'N'],
  ['upthrust', 'N'],
  ['stiffness', 'N/m'],
  ['spacing', 'm'],
  ['gap', 'm'],
  ['deflection', 'm'],
  ['stretch', 'm'],
  ['elongation', 'm'],
  ['delay', 's'],
  ['resistor', 'ohm'],
  ['resistivity', 'ohm m'],
  ['viscosity', 'Pa s'],
  ['stress', 'Pa'],
  ['strain', '1'],
  ['emissivity', '1'],
  ['tension', 'N'],
  ['weight', 'N'],
  ['momentum', 'kg m/s'],
  ['impulse', 'N s'],
  ['torque', 'N m'],
  ['energy', 'J'],
  ['work', 'J'],
  ['heat', 'J'],
  ['power', 'W'],
  ['pressure', 'Pa'],
  ['temperature', 'K'],
  ['frequency', 'Hz'],
  ['charge', 'C'],
  ['current', 'A'],
  ['voltage', 'V'],
  ['emf', 'V'],
  ['resistance', 'ohm'],
  ['capacitance', 'F'],
  ['inductance', 'H'],
  ['angle', '1'],
  ['magnification', '1'],
  ['ratio', '1'],
  ['fraction', '1'],
  ['efficiency', '1'],
  ['factor', '1'],
  ['moles', 'mol'],
];

/** Words that make a description's kind unsure: "amplitude" of what, "constant" of what. */
const UNSURE = /\b(amplitude|constant|coefficient|rate|per|field|flux|intensity|activity|potential)\b/;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PATTERNS = KINDS.map(([phrase, unit]) => ({ re: new RegExp(`(^|[^a-z])${escape(phrase)}($|[^a-z])`), unit, phrase }));

/** The unit of a kind of quantity this table names ("tension", "moment of inertia"), or null. */
export function unitOfKind(kind: string): Unit | null {
  const hit = KINDS.find(([phrase]) => phrase === kind);
  if (!hit) return null;
  const p = parseUnit(hit[1]);
  return p.ok ? p.unit : null;
}

/** A unit written in brackets in the description ("density of water (kg/m^3)"), if it parses. */
function writtenUnit(description: string): Unit | null {
  const m = /\(([^()]*)\)/.exec(description);
  if (!m) return null;
  const p = parseUnit(m[1].trim());
  return p.ok ? p.unit : null;
}

/** The unit a description implies, or null when it names no kind of quantity this table knows, or two. */
export function inferredUnit(description: string): Unit | null {
  const written = writtenUnit(description);
  if (written) return written;
  const text = description.toLowerCase().replace(/\([^()]*\)/g, ' ');
  // The first kind named is the head ("speed of the block at displacement x"); a description whose
  // head phrase is unsure names no unit.
  let best: { at: number; unit: string; phrase: string } | null = null;
  for (const p of PATTERNS) {
    const m = p.re.exec(text);
    if (!m) continue;
    const at = m.index + m[1].length;
    if (!best || at < best.at || (at === best.at && p.phrase.length > best.phrase.length)) best = { at, unit: p.unit, phrase: p.phrase };
  }
  if (!best) return null;
  const before = text.slice(0, best.at + best.phrase.length);
  // "Wien's displacement constant", "decay constant": a constant named after a kind of quantity
  // is not that quantity (Wien's is m·K, not a length).
  // So is a coefficient ("temperature coefficient of resistance") or a kind per something ("heat
  // loss per unit area per kelvin").
  if (/^\s+(?:constant|coefficient)\b|^\s+(?:[a-z-]+\s+)?per\b/.test(text.slice(best.at + best.phrase.length))) return null;
  // "constant" just before the kind is an adjective ("constant resistive force", "constant speed"),
  // not a constant of some kind.
  const unsure = UNSURE.exec(before.slice(0, best.at).replace(/\bconstant\s+(?:[a-z-]+\s+)?$/, '') + before.slice(best.at));
  if (unsure && !best.phrase.includes(unsure[1])) return null;
  const p = parseUnit(best.unit);
  return p.ok ? p.unit : null;
}

/** A variable's unit: the exam's own (`unit`), else the one its description implies; null when neither. */
export function unitOfVariable(v: { unit?: string; description?: string }): Unit | null {
  const declared = v.unit === undefined ? null : parseUnit(v.unit);
  return declared?.ok ? declared.unit : inferredUnit(v.description ?? '');
}

const unitsByQuestion = new WeakMap<object, Map<string, Unit>>();

/**
 * Each variable's unit (unitOfVariable) by name; variables with neither a unit nor a description
 * that implies one are absent. Worked out once per question (every reading of it asks).
 */
export function variableUnits(question: { variables: readonly { name: string; unit?: string; description?: string }[] }): ReadonlyMap<string, Unit> {
  const hit = unitsByQuestion.get(question);
  if (hit) return hit;
  const out = new Map<string, Unit>();
  for (const v of question.variables) {
    const unit = unitOfVariable(v);
    if (unit) out.set(v.name, unit);
  }
  unitsByQuestion.set(question, out);
  return out;
}

const declaredByQuestion = new WeakMap<object, Map<string, Unit>>();

/**
 * Only the units the exam declares (`unit`), by name: for a check that raises confidence, which a
 * unit read from a description ("Wien's constant" taken for another quantity) must not do.
 */
export function declaredUnits(question: { variables: readonly { name: string; unit?: string }[] }): ReadonlyMap<string, Unit> {
  const hit = declaredByQuestion.get(question);
  if (hit) return hit;
  const out = new Map<string, Unit>();
  for (const v of question.variables) {
    const p = v.unit === undefined ? null : parseUnit(v.unit);
    if (p?.ok) out.set(v.name, p.unit);
  }
  declaredByQuestion.set(question, out);
  return out;
}
