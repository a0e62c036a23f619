import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convert, parseUnit, readUnitAt, unitOrThrow } from '../../shared/units/parse-unit.ts';
import { formatDimension } from '../../shared/units/dimension.ts';
import { describeDimension } from '../../shared/units/describe.ts';

const dim = (s: string): string => {
  const p = parseUnit(s);
  assert.ok(p.ok, `${s}: ${p.ok ? '' : p.error}`);
  return formatDimension(p.unit.dimension);
};

test('unit strings as physicists write them: the same dimension however written', () => {
  for (const s of ['m/s', 'm s^-1', 'm·s⁻¹', 'm*s**-1', 'km/h', 'metres/second']) assert.equal(dim(s), 'm/s', s);
  for (const s of ['m/s^2', 'm/s²', 'm s^-2', 'm·s⁻²', 'm/s2']) assert.equal(dim(s), 'm/s^2', s);
  for (const s of ['J', 'kJ', 'N m', 'N*m', 'kg m^2/s^2', 'kg*m**2/s**2', 'eV']) assert.equal(dim(s), 'kg m^2/s^2', s);
  assert.equal(dim('J/(kg K)'), 'm^2/(s^2 K)');
  assert.equal(dim('J/kg K'), 'm^2/(s^2 K)', 'factors after / with spaces stay in the denominator, as read aloud');
  assert.equal(dim('1'), '1');
  assert.equal(dim('rad'), '1', 'angles are dimensionless (SI)');
  assert.equal(dim('1/s'), '1/s');
  assert.equal(dim('m^(1/2)'), 'm^(1/2)');
  assert.equal(dim('Ω'), dim('ohm'));
  assert.equal(dim('µF'), dim('uF'));
});

test('prefixes scale, units that are words are never read with a prefix', () => {
  assert.equal(unitOrThrow('kJ').factor, 1000);
  assert.equal(unitOrThrow('ms').factor, 0.001);
  assert.equal(unitOrThrow('mm').factor, 0.001);
  assert.equal(unitOrThrow('kg').factor, 1);
  assert.equal(unitOrThrow('g').factor, 0.001);
  assert.equal(unitOrThrow('min').factor, 60, 'min is minutes, not milli-inches');
  assert.equal(unitOrThrow('h').factor, 3600, 'h alone is the hour');
  assert.equal(unitOrThrow('hPa').factor, 100, 'h before a unit is hecto');
  assert.equal(unitOrThrow('cd').factor, 1, 'cd is the candela');
  assert.ok(Math.abs(unitOrThrow('km/h').factor - 1 / 3.6) < 1e-15);
});

test('an unknown unit is named in the error', () => {
  assert.deepEqual(parseUnit('mps'), { ok: false, error: "unknown unit 'mps'" });
  assert.deepEqual(parseUnit('m/s2x'), { ok: false, error: "can't read unit 'm/s2x' after 'm/s2'" });
  const p = parseUnit('kg m/furlong');
  assert.equal(p.ok, false);
  assert.match(p.ok ? '' : p.error, /unknown unit 'furlong'/);
  assert.equal(parseUnit('').ok, false);
  assert.equal(parseUnit('°C').ok, false, 'offset scales are left out on purpose');
});

test('convert: kJ to J, km/h to m/s; a different dimension does not convert', () => {
  assert.equal(convert(3.2, unitOrThrow('kJ'), unitOrThrow('J')), 3200);
  assert.ok(Math.abs(convert(36, unitOrThrow('km/h'), unitOrThrow('m/s'))! - 10) < 1e-12);
  assert.equal(convert(1, unitOrThrow('m'), unitOrThrow('s')), null);
});

test('readUnitAt: the longest unit at a place in a text, stopping at words and equation tags', () => {
  assert.equal(readUnitAt('40.8 m in 2.9 s', 5)?.written, 'm');
  assert.equal(readUnitAt('9.81 m/s² down', 5)?.written, 'm/s²');
  assert.equal(readUnitAt('0.45 m (1)', 5)?.written, 'm');
  assert.equal(readUnitAt('3.2kJ.', 3)?.written, 'kJ');
  assert.equal(readUnitAt('12 metres', 3)?.written, 'metres');
  assert.equal(readUnitAt('12 apples', 3), null);
});

test('dimensions are written in SI base units, named where an instructor would name them', () => {
  assert.equal(formatDimension(unitOrThrow('N').dimension), 'kg m/s^2');
  assert.equal(formatDimension(unitOrThrow('m^2/s').dimension, { pretty: true }), 'm²/s');
  assert.equal(formatDimension(unitOrThrow('Pa').dimension), 'kg/(m s^2)');
  assert.equal(describeDimension(unitOrThrow('ohm').dimension), 'Ω');
  assert.equal(describeDimension(unitOrThrow('1/ohm').dimension), '1/Ω');
  assert.equal(describeDimension(unitOrThrow('m/s').dimension), 'm/s');
});

test('the watt-hour and ampere-hour as meters and batteries write them, glued and prefixed ("60 kWh", "2000 mAh")', () => {
  assert.equal(convert(60, unitOrThrow('kWh'), unitOrThrow('MJ')), 216);
  assert.equal(dim('Wh'), dim('J'));
  assert.equal(convert(2000, unitOrThrow('mAh'), unitOrThrow('C')), 7200);
  assert.equal(dim('Ah'), dim('C'));
});
