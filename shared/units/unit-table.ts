// The units Equimark knows: SI base and derived units (which take SI prefixes) and a few others
// physicists use (minute, hour, degree, litre, electronvolt, atmosphere). Each is a factor to the
// SI base units and a dimension. Angles are dimensionless (the radian is 1, as in SI). Offset
// scales (°C, °F) are left out on purpose: a temperature difference and a temperature convert
// differently, and a unit string can't say which. Pure.
import { dimensionOf, DIMENSIONLESS, type Dimension } from './dimension.ts';

export type UnitDef = { factor: number; dimension: Dimension; prefixable: boolean };

const d = dimensionOf;

/** Symbol -> definition. Long names (metre, joule) are listed beside the symbols. */
const UNITS: Record<string, UnitDef> = {};
function add(names: string[], factor: number, dimension: Dimension, prefixable: boolean): void {
  for (const n of names) UNITS[n] = { factor, dimension, prefixable };
}

// SI base units (the kilogram's prefixes go on the gram).
add(['m'], 1, d({ m: 1 }), true);
add(['g'], 1e-3, d({ kg: 1 }), true);
add(['s'], 1, d({ s: 1 }), true);
add(['A'], 1, d({ A: 1 }), true);
add(['K'], 1, d({ K: 1 }), true);
add(['mol'], 1, d({ mol: 1 }), true);
add(['cd'], 1, d({ cd: 1 }), true);
// SI derived units with special names.
add(['N'], 1, d({ kg: 1, m: 1, s: -2 }), true);
add(['J'], 1, d({ kg: 1, m: 2, s: -2 }), true);
add(['W'], 1, d({ kg: 1, m: 2, s: -3 }), true);
add(['Pa'], 1, d({ kg: 1, m: -1, s: -2 }), true);
add(['Hz'], 1, d({ s: -1 }), true);
add(['C'], 1, d({ A: 1, s: 1 }), true);
add(['V'], 1, d({ kg: 1, m: 2, s: -3, A: -1 }), true);
add(['Ω', 'ohm'], 1, d({ kg: 1, m: 2, s: -3, A: -2 }), true);
add(['S'], 1, d({ kg: -1, m: -2, s: 3, A: 2 }), true);
add(['F'], 1, d({ kg: -1, m: -2, s: 4, A: 2 }), true);
add(['T'], 1, d({ kg: 1, s: -2, A: -1 }), true);
add(['Wb'], 1, d({ kg: 1, m: 2, s: -2, A: -1 }), true);
add(['H'], 1, d({ kg: 1, m: 2, s: -2, A: -2 }), true);
add(['rad', 'sr'], 1, DIMENSIONLESS, true);
add(['L', 'l'], 1e-3, d({ m: 3 }), true);
add(['eV'], 1.602176634e-19, d({ kg: 1, m: 2, s: -2 }), true);
// The watt-hour and the ampere-hour, as written on meters and batteries, glued ("60 kWh", "2000 mAh").
add(['Wh'], 3600, d({ kg: 1, m: 2, s: -2 }), true);
add(['Ah'], 3600, d({ A: 1, s: 1 }), true);
// Others in use beside SI (no prefixes: "min" is not milli-inch, "h" here is the hour).
add(['min'], 60, d({ s: 1 }), false);
add(['h', 'hr'], 3600, d({ s: 1 }), false);
add(['day'], 86400, d({ s: 1 }), false);
add(['°', 'deg', 'degree', 'degrees'], Math.PI / 180, DIMENSIONLESS, false);
add(['rev'], 2 * Math.PI, DIMENSIONLESS, false);
add(['atm'], 101325, d({ kg: 1, m: -1, s: -2 }), false);
add(['bar'], 1e5, d({ kg: 1, m: -1, s: -2 }), false);
add(['%'], 0.01, DIMENSIONLESS, false);
// Names students write out.
add(['metre', 'metres', 'meter', 'meters'], 1, d({ m: 1 }), false);
add(['second', 'seconds', 'sec', 'secs'], 1, d({ s: 1 }), false);
add(['kilogram', 'kilograms'], 1, d({ kg: 1 }), false);
add(['gram', 'grams'], 1e-3, d({ kg: 1 }), false);
add(['newton', 'newtons'], 1, d({ kg: 1, m: 1, s: -2 }), false);
add(['joule', 'joules'], 1, d({ kg: 1, m: 2, s: -2 }), false);
add(['watt', 'watts'], 1, d({ kg: 1, m: 2, s: -3 }), false);
add(['ohms'], 1, d({ kg: 1, m: 2, s: -3, A: -2 }), false);
add(['volt', 'volts'], 1, d({ kg: 1, m: 2, s: -3, A: -1 }), false);
add(['minute', 'minutes', 'mins'], 60, d({ s: 1 }), false);
add(['hour', 'hours', 'hrs'], 3600, d({ s: 1 }), false);
add(['kilometre', 'kilometres', 'kilometer', 'kilometers'], 1e3, d({ m: 1 }), false);
add(['centimetre', 'centimetres', 'centimeter', 'centimeters'], 1e-2, d({ m: 1 }), false);
add(['millimetre', 'millimetres', 'millimeter', 'millimeters'], 1e-3, d({ m: 1 }), false);

/** SI prefixes (µ also as u and the Greek μ). */
const PREFIXES: Record<string, number> = {
  Y: 1e24,
  Z: 1e21,
  E: 1e18,
  P: 1e15,
  T: 1e12,
  G: 1e9,
  M: 1e6,
  k: 1e3,
  h: 1e2,
  da: 1e1,
  d: 1e-1,
  c: 1e-2,
  m: 1e-3,
  µ: 1e-6,
  μ: 1e-6,
  u: 1e-6,
  n: 1e-9,
  p: 1e-12,
  f: 1e-15,
  a: 1e-18,
};

/**
 * The definition of one unit symbol (`kJ`, `ms`, `µF`, `km`), or undefined for an unknown one. A
 * symbol that is a unit as it stands is never read with a prefix (`min` is minutes, `Pa` pascals).
 */
export function lookupUnit(symbol: string): UnitDef | undefined {
  const own = Object.hasOwn(UNITS, symbol) ? UNITS[symbol] : undefined;
  if (own) return own;
  for (const p of Object.keys(PREFIXES).sort((a, b) => b.length - a.length)) {
    if (!symbol.startsWith(p) || symbol.length === p.length) continue;
    const base = symbol.slice(p.length);
    const u = Object.hasOwn(UNITS, base) ? UNITS[base] : undefined;
    if (u?.prefixable) return { factor: PREFIXES[p] * u.factor, dimension: u.dimension, prefixable: false };
  }
  return undefined;
}
