// A variable's unit inferred from its description (shared/units/infer-unit.ts): the unit written in
// it, else the kind of quantity its head names; nothing where the kind is unsure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inferredUnit, unitOfKind } from '../../shared/units/infer-unit.ts';
import { formatDimension } from '../../shared/units/dimension.ts';

const dim = (d: string): string | null => {
  const u = inferredUnit(d);
  return u ? formatDimension(u.dimension) : null;
};

test('the kind of quantity a description names, by its first kind word; longer phrases win', () => {
  assert.equal(dim('speed of the cart at the bottom of the ramp'), 'm/s');
  assert.equal(dim('angular speed of the wheel'), '1/s');
  assert.equal(dim('mass per unit length of the wire'), 'kg/m');
  assert.equal(dim('kinetic energy of the electron'), 'kg m^2/s^2');
  assert.equal(dim('time constant of the circuit'), 's');
  assert.equal(dim('tension in the cable'), 'kg m/s^2');
  assert.equal(dim('coefficient of friction between tyre and road'), '1');
  assert.equal(dim('half-life of the isotope'), 's');
});

test('a deceleration is an acceleration', () => {
  assert.equal(dim('magnitude of the braking deceleration'), 'm/s^2');
});

test('a unit written in brackets wins; an unparseable bracket is ignored', () => {
  assert.equal(dim('density of oil (kg/m^3)'), 'kg/m^3');
  assert.equal(dim('launch speed (m/s)'), 'm/s');
  assert.equal(dim('decay constant (lambda)'), '1/s');
});

test('no unit where the kind is unsure or unknown', () => {
  assert.equal(dim('amplitude of the oscillation'), null);
  assert.equal(dim('activity of the sample'), null);
  assert.equal(dim('a constant of the motion'), null);
  // A constant named after a kind of quantity is not that quantity: Wien's is m·K, not a length.
  assert.equal(dim("Wien's displacement constant"), null);
  assert.equal(dim(''), null);
});

test("unitOfKind names the table's kinds only", () => {
  assert.ok(unitOfKind('tension'));
  assert.equal(unitOfKind('happiness'), null);
});

test('a number of moles is an amount of substance (mol), a number of things a count; the Avogadro constant is per mole', () => {
  assert.equal(dim('number of moles of gas'), 'mol');
  assert.equal(dim('amount of substance in the flask'), 'mol');
  assert.equal(dim('number of molecules'), '1');
  assert.equal(dim('Avogadro constant'), '1/mol');
  assert.equal(dim("Avogadro's number"), '1/mol');
});

test('a coefficient is a pure number only as friction, restitution, drag and performance have one', () => {
  assert.equal(dim('coefficient of static friction between paper and door'), '1');
  assert.equal(dim('coefficient of restitution'), '1');
  assert.equal(dim('drag coefficient'), '1');
  assert.equal(dim('coefficient of performance of the freezer'), '1');
  // Per metre: exp(−μx) has a dimensionless exponent, which a pure μ would have flagged.
  assert.equal(dim('linear attenuation coefficient of soft tissue'), '1/m');
  assert.equal(dim('absorption coefficient of the fog'), '1/m');
  assert.equal(dim('linear coefficient of the force law'), null);
  assert.equal(dim('temperature coefficient of resistance'), null);
});

test('"constant" just before the kind is an adjective; a kind per something names no unit', () => {
  assert.equal(dim('constant resistive force along the track'), 'kg m/s^2');
  assert.equal(dim('constant speed of the car up the ramp'), 'm/s');
  assert.equal(dim('constant of proportionality between force and speed'), null);
  assert.equal(dim('heat loss per unit area per kelvin'), null);
  assert.equal(dim('energy released per litre of fuel'), null);
});

test('forces, lengths and material constants named by words of their own', () => {
  assert.equal(dim('normal reaction of the track on the car'), 'kg m/s^2');
  assert.equal(dim('upthrust (buoyant force) of the water'), 'kg m/s^2');
  assert.equal(dim('forward thrust of the engines'), 'kg m/s^2');
  assert.equal(dim('stiffness of the board'), 'kg/s^2');
  assert.equal(dim('vertical drop from the start to the lowest point'), 'm');
  assert.equal(dim('slit spacing of the grating'), 'm');
  assert.equal(dim('upper resistor of the left arm'), 'kg m^2/(s^3 A^2)');
  assert.equal(dim('permittivity of free space'), 's^4 A^2/(kg m^3)');
  assert.equal(dim('viscosity of the oil'), 'kg/(m s)');
  assert.equal(dim("Young's modulus of steel"), 'kg/(m s^2)');
  assert.equal(dim('thermal conductivity of the inner layer'), 'kg m/(s^3 K)');
  assert.equal(dim('atomic number (number of protons)'), '1');
});
