// Double-precision evaluation of equations at admissible points, and sampling of a premise's
// solution set: assign every variable but one at random, then solve the premise for the last one
// (scan its admissible interval for sign changes, bisect to adjacent doubles, keep the root only
// if the residual is tiny relative to the size of the terms). Nothing here is a proof: a point
// found is evidence the premise is satisfiable (intermediate value theorem on a continuous
// bracket), and a conclusion clearly violated there is a counterexample.
//
// Split by concern: numeric-eval.ts (expressions compiled to evaluators, residual checks),
// var-spec.ts (admissible sets of the variables, random admissible values), premise-sample.ts
// (roots in one variable, sampling the premise's solution set, point conditioning).
export { AGREE_TOL, checkAt, clearlyUndefined, compileEquation, compileExpr, formatValue, PREMISE_TOL, relResidual, VIOLATE_TOL } from './numeric-eval.ts';
export type { CompiledEq, PointCheck } from './numeric-eval.ts';
export { inSpec, sampleValue, specEmpty, varSpecs, type VarSpec } from './var-spec.ts';
export { ILL_CONDITIONED, onPremise, POINT_RHO, samplePremise, solveFor, wellConditioned, type PremiseSample } from './premise-sample.ts';
