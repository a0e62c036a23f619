// A dimension in the words an instructor reads: the SI unit with a special name where the
// dimension is exactly one (`Ω`, `J`, `N`; `1/Ω` for its reciprocal), else SI base units with
// powers as superscripts (`m²/s`). Resistances written as `kg m²/(s³ A²)` would be true and
// unreadable. Pure.
import { divide, DIMENSIONLESS, formatDimension, sameDimension, type Dimension } from './dimension.ts';
import { lookupUnit } from './unit-table.ts';

/** Named SI units worth naming (not Hz or Bq: 1/s is as often rad/s). */
const NAMED = ['N', 'J', 'W', 'Pa', 'C', 'V', 'Ω', 'F', 'T', 'Wb', 'H'];

export function describeDimension(d: Dimension): string {
  for (const name of NAMED) {
    const u = lookupUnit(name)!;
    if (sameDimension(d, u.dimension)) return name;
    if (sameDimension(d, divide(DIMENSIONLESS, u.dimension))) return `1/${name}`;
  }
  return formatDimension(d, { pretty: true });
}
