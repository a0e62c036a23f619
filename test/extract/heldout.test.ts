// The embedded extractor on sets written for it beside the development set, each with gold lists
// following ../shared/data/README.md:
// - test/fixtures/heldout: four questions on topics the development exam doesn't have (parallel
//   resistors, a pendulum, an isothermal gas, a circular orbit), 97 typed responses. Measured when
//   written: coverage 58.1% (54/93 non-blank read with confidence), precision 98.1% (53/54; the one
//   miss has gold marked ambiguous: T written for the time t). Rules were fixed against it, so it
//   is not unbiased. Floors: precision >= 98%, coverage >= 52%.
// - test/fixtures/blind: three more questions (RC charging, Snell's law, a mass on a spring), 81
//   responses written by someone who had not seen the extractor. Its first, blind measurement:
//   coverage 48.7% (38/78), precision 92.1% (35/38); after general fixes for the three causes
//   (function notation x(t), a one-line retraction, 'cos ωt'): coverage 50.0%, precision 100%
//   (39/39). Floors: precision >= 97%, coverage >= 44% (44.9% since text addressed to the marker
//   makes a reading needs-review: its four 'gaming' rows are no longer counted as confident).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { entailerComparator, evaluateExtraction, formatExtractReport, loadDevSet, mustBeEmpty } from '../../electron/engine/eval/figures.ts';
import { extractEmbedded } from '../../shared/extract/index.ts';
import { parseEquation } from '../../shared/equation/index.ts';

// Since session 31 a number stated in words as a result ("…, which comes to 6 N") is a choice
// (recorded, or not) that holds the response back, so rounds that had such rows read lost a little
// coverage (one to two rows each: 33, 35, 45–47, 50, 53, 55, 56, 58) and their writers' disagreement on
// recording them (27, 29) is no longer a miss; the figures in the comments below are from before.
// So since then is a '/' among substituted numbers before more numbers multiplied in ("150 × 240/1.6×10⁻¹⁹
// × 12"): by the extractor alone (no engine to settle it by the chain) a choice, so rounds 37, 38
// (S3823 q4), 40 (S4020 q2), 44, 50 (S5016 q4) and 55 read a row less, or miss one less.
const SETS: { name: string; dir: string; precision: number; coverage: number; mustBeEmpty: number; allowedMisses?: string[] }[] = [
  { name: 'held-out', dir: 'test/fixtures/heldout', precision: 0.98, coverage: 0.52, mustBeEmpty: 12 },
  { name: 'blind', dir: 'test/fixtures/blind', precision: 0.97, coverage: 0.44, mustBeEmpty: 8 },
  // Rounds 2 to 8 (docs/extractor-ledger.md): floors a little under the figures after their general
  // fixes (2: 61.9%, 4: 50.0%, 5: 54.8% coverage; precision 100%, 100%, 97.8%).
  { name: 'blind round 2', dir: 'test/fixtures/blind2', precision: 0.98, coverage: 0.58, mustBeEmpty: 4 },
  // (Round 3 is left to `equimark eval`: one of its gold rows writes log with a base, outside the
  // grammar, which eval reports as not evaluated and this comparer would count as a miss.)
  { name: 'blind round 4', dir: 'test/fixtures/blind4', precision: 0.98, coverage: 0.47, mustBeEmpty: 4 },
  { name: 'blind round 5', dir: 'test/fixtures/blind5', precision: 0.97, coverage: 0.52, mustBeEmpty: 4 },
  // Round 6 after its general fixes: 59.5% coverage, precision 100% (first sight 45.2%, 92.1%).
  { name: 'blind round 6', dir: 'test/fixtures/blind6', precision: 0.98, coverage: 0.55, mustBeEmpty: 12 },
  // Round 7 after its general fixes: 62.6% coverage, precision 98.2% (first sight 62.2%, 89.3%).
  { name: 'blind round 7', dir: 'test/fixtures/blind7', precision: 0.97, coverage: 0.57, mustBeEmpty: 12 },
  // Round 8 after its general fixes: 52.4% coverage, precision 100% (first sight 53.6%, 84.4%).
  { name: 'blind round 8', dir: 'test/fixtures/blind8', precision: 0.98, coverage: 0.48, mustBeEmpty: 12 },
  // Round 9 after its general fixes: 42.9% coverage, precision 100% with the engine's checks (first sight 45.8%, 92.1%).
  // S935 q1 corrects a number of a chain in words ("the 16 should be 32"): the extractor keeps both,
  // and grading's contradiction check (a chain's ends against the corrected value) sends it to
  // review; this comparer runs the extractor alone.
  { name: 'blind round 9', dir: 'test/fixtures/blind9', precision: 0.97, coverage: 0.4, mustBeEmpty: 12, allowedMisses: ['S935 q1'] },
  // Round 10 after its general fixes: 45.9% coverage, precision 97.4% (first sight 50.0%, 90.5%);
  // S1033 q4 (a slip taken back with "that's upside down") is read right since "upside down" is
  // a correction cue (round 18).
  { name: 'blind round 10', dir: 'test/fixtures/blind10', precision: 0.9, coverage: 0.42, mustBeEmpty: 11 },
  // Round 11 after its general fixes: 48.8% coverage, precision 95.1% (first sight 52.4%, 88.6%).
  // Grading's checks send both to review: S1127 q3 (a contradiction), S1110 q2 (V written for the
  // emf, the question's epsilon, read as the speed v, leaves "I = V/R" unbalanced:
  // decide/case-mapped.ts). S1136 q1 (two quantities forced equal) reads right since "the other way
  // round" is a correction cue (round 21's fixes). Since session 32 the extractor alone sends
  // S1127 q3 to review too ("— wrong sign on that" is a correction cue).
  {
    name: 'blind round 11',
    dir: 'test/fixtures/blind11',
    precision: 0.9,
    coverage: 0.44,
    mustBeEmpty: 12,
    allowedMisses: ['S1110 q2'],
  },
  // Round 12 after its general fixes: 54.8% coverage, precision 100% (first sight 57.0%, 92.5%,
  // with its gold rows in e-notation rewritten in the grammar).
  { name: 'blind round 12', dir: 'test/fixtures/blind12', precision: 0.98, coverage: 0.5, mustBeEmpty: 11 },
  // Round 13 after its general fixes: 46.4% coverage, precision 100% (first sight 44.0%, 91.9%,
  // its exam's logs to base 10 rewritten as log(x)/log(10) so that it loaded at all).
  { name: 'blind round 13', dir: 'test/fixtures/blind13', precision: 0.98, coverage: 0.42, mustBeEmpty: 12 },
  // Round 14 after its general fixes: 54.1% coverage, precision 100% (first sight 55.3%, 91.5%).
  // Since ε reads as the question's emf E (session 26): 55.3%, 97.9%; the error S1416 q3 is on gold
  // marked ambiguous (its Φ is the flux through one turn, the question's Phi the flux linkage).
  { name: 'blind round 14', dir: 'test/fixtures/blind14', precision: 0.97, coverage: 0.5, mustBeEmpty: 11 },
  // Round 15 after its general fixes: 54.7% coverage, precision 100% (first sight 48.8%, 100%).
  // This comparer runs the extractor alone: the '/' beside a '+' that dimensions settle in grading
  // stays partial here.
  { name: 'blind round 15', dir: 'test/fixtures/blind15', precision: 0.98, coverage: 0.42, mustBeEmpty: 13 },
  // Round 16 after its general fixes: 57.6% coverage, precision 98.1% (first sight 52.2%, 93.8%).
  // The one read not equal to gold, S1632 q3, is on gold marked ambiguous (F for two forces).
  // Grading's checks send two more to review: S1636 q4 (a contradiction), S1643 q4 (a symbol reused).
  // Since session 32 the extractor alone sends S1636 q4 to review too ("— no," is a correction cue).
  {
    name: 'blind round 16',
    dir: 'test/fixtures/blind16',
    precision: 0.94,
    coverage: 0.52,
    mustBeEmpty: 12,
    allowedMisses: ['S1643 q4'],
  },
  // Round 17 after its general fixes: 63.1% coverage, precision 100% (first sight 65.5%, 96.4%,
  // both errors reads on gold marked ambiguous).
  { name: 'blind round 17', dir: 'test/fixtures/blind17', precision: 0.96, coverage: 0.6, mustBeEmpty: 12 },
  // Round 18 after its general fixes: 44.0% coverage, precision 100% (first sight 45.2%, 84.2%).
  { name: 'blind round 18', dir: 'test/fixtures/blind18', precision: 0.97, coverage: 0.42, mustBeEmpty: 11 },
  // Round 19 after its general fixes: 56.3% coverage, precision 100% (first sight 58.6%, 96.1%,
  // 100% on unambiguous gold; the three errors reads of gold marked ambiguous).
  { name: 'blind round 19', dir: 'test/fixtures/blind19', precision: 0.98, coverage: 0.52, mustBeEmpty: 12 },
  // Round 20 after its general fixes: 54.2% coverage, precision 100% (first sight 55.2%, 98.1%).
  { name: 'blind round 20', dir: 'test/fixtures/blind20', precision: 0.98, coverage: 0.5, mustBeEmpty: 8 },
  // Round 21 after its general fixes: 63.1% coverage, precision 98.1% (first sight 58.3%, 93.9%;
  // the one error left a read of gold marked ambiguous: B written for both fields).
  { name: 'blind round 21', dir: 'test/fixtures/blind21', precision: 0.97, coverage: 0.58, mustBeEmpty: 12 },
  // Round 22 after its general fixes: 45.9% coverage, precision 97.4% with the engine's checks
  // (the one error S2233 q1, on ambiguous gold)
  // (first sight 43.5%, 86.5%). Read by the extractor alone: S2218 q1 (ambiguous gold;
  // decide/case-mapped.ts sends it to review).
  { name: 'blind round 22', dir: 'test/fixtures/blind22', precision: 0.94, coverage: 0.38, mustBeEmpty: 12 },
  // Round 23 after its general fixes: 42.7% coverage, precision 100% with the engine's checks
  // (first sight 42.7%, 97.4%); the extractor alone also reads three rows of ambiguous gold that
  // grading's checks send to review.
  { name: 'blind round 23', dir: 'test/fixtures/blind23', precision: 0.92, coverage: 0.4, mustBeEmpty: 12 },
  // Rounds 24 to 26 after their general fixes, with the engine's checks (eval): round 24 45.6%,
  // 41 of 41 reads equal to gold (one, S2406 q2, on gold marked ambiguous; first sight 30.0%,
  // 92.6%); round 25 41.6%, 97.3% (the error S2509 q1, F written for D, on ambiguous gold; first
  // sight 39.3%, 88.6%); round 26 42.7%, 100% (first sight 41.6%, 97.3%). By the extractor alone,
  // which this comparer runs (choices the engine settles stay partial): 33.3% at 100% (24), 36.0%
  // at 100% (26).
  { name: 'blind round 24', dir: 'test/fixtures/blind24', precision: 0.97, coverage: 0.31, mustBeEmpty: 7 },
  { name: 'blind round 25', dir: 'test/fixtures/blind25', precision: 0.97, coverage: 0.37, mustBeEmpty: 10 },
  { name: 'blind round 26', dir: 'test/fixtures/blind26', precision: 0.98, coverage: 0.34, mustBeEmpty: 10 },
  // Round 27 after its general fixes: 52.2% coverage, precision 95.7% (first sight 53.3%, 91.7%).
  // Its two errors are one disagreement of conventions: its writer records no numeric result stated
  // in words ("F = μv, which comes to 6 N"), where the calibration issue and other rounds' gold (round
  // 20's S2024 q2) record it; the reader follows the issue.
  {
    name: 'blind round 27',
    dir: 'test/fixtures/blind27',
    precision: 0.95,
    coverage: 0.5,
    mustBeEmpty: 5,
  },
  // Rounds 28 and 29 after their general fixes: 30.3% coverage at 100%, and 43.8% at 97.4% (first
  // sight 30.3%, 96.3%; 46.1%, 92.7%). By the extractor alone: 32.6% at 96.6% (its miss S2812 q3
  // on ambiguous gold, which the engine's checks send to review) and 44.9% at 97.5%. Round 29's
  // writer records no numeric result stated in words (S2914 q2, "which comes to 39.7 m"), as round
  // 27's did not: the reader follows the issue.
  { name: 'blind round 28', dir: 'test/fixtures/blind28', precision: 0.96, coverage: 0.31, mustBeEmpty: 9 },
  { name: 'blind round 29', dir: 'test/fixtures/blind29', precision: 0.97, coverage: 0.43, mustBeEmpty: 9 },
  // Rounds 30 to 33 by the extractor alone, after the session's fixes: 43.5% at 100%, 31.1% at 100%,
  // 47.2% at 97.6% (its miss on ambiguous gold) and 59.6% at 98.1% (its miss on ambiguous gold).
  // First sight, with the engine: 45.7% at 97.6%, 33.3% at 100%, 44.9% at 95.0%, 48.3% at 97.7%.
  { name: 'blind round 30', dir: 'test/fixtures/blind30', precision: 0.98, coverage: 0.42, mustBeEmpty: 8 },
  { name: 'blind round 31', dir: 'test/fixtures/blind31', precision: 0.98, coverage: 0.3, mustBeEmpty: 5 },
  { name: 'blind round 32', dir: 'test/fixtures/blind32', precision: 0.97, coverage: 0.46, mustBeEmpty: 8 },
  { name: 'blind round 33', dir: 'test/fixtures/blind33', precision: 0.98, coverage: 0.57, mustBeEmpty: 6 },
  // Rounds 34 to 39 by the extractor alone, after this session's fixes (first sight with the engine
  // in the ledger; round 36 met the goal at first sight, 63.3% at 98.2%): 45.6% at 95.1% (its two
  // misses on ambiguous gold), 49.4% at 88.6% (S3512 q3 and S3518 q2 the engine's contradiction
  // check sends to review; S3503 q4, "forgot friction!!" taking back a first attempt, read wrong
  // then, is in review since session 29: 48.3% at 90.7%), 64.4% at 100%, 52.7% at 98.0% (its miss on ambiguous gold), 34.8% at 93.5% (S3823 q4:
  // its gold links the second line's numbers to the first line's expression, where the student
  // restates M) and 41.1% at 91.9% (three misses on ambiguous gold).
  { name: 'blind round 34', dir: 'test/fixtures/blind34', precision: 0.95, coverage: 0.45, mustBeEmpty: 7 },
  {
    name: 'blind round 35',
    dir: 'test/fixtures/blind35',
    precision: 0.9,
    coverage: 0.47,
    mustBeEmpty: 6,
    allowedMisses: ['S3512 q3', 'S3518 q2'],
  },
  { name: 'blind round 36', dir: 'test/fixtures/blind36', precision: 0.98, coverage: 0.64, mustBeEmpty: 5 },
  { name: 'blind round 37', dir: 'test/fixtures/blind37', precision: 0.97, coverage: 0.51, mustBeEmpty: 4 },
  { name: 'blind round 38', dir: 'test/fixtures/blind38', precision: 0.93, coverage: 0.34, mustBeEmpty: 7 },
  { name: 'blind round 39', dir: 'test/fixtures/blind39', precision: 0.91, coverage: 0.41, mustBeEmpty: 5 },
  // Rounds 40 and 41 by the extractor alone, after the fixes (first sight with the engine in the
  // ledger; round 40 met the goal at first sight, 69.7% at 100%): 70.8% at 98.4% and 44.9% at 97.5%.
  // S4020 q2 ("h = v^2/2g = 5^2/2*9.8 = 1.28", its numbers differ as written) the engine sends to
  // review; round 41's one miss is on ambiguous gold.
  { name: 'blind round 40', dir: 'test/fixtures/blind40', precision: 0.98, coverage: 0.69, mustBeEmpty: 9 },
  { name: 'blind round 41', dir: 'test/fixtures/blind41', precision: 0.97, coverage: 0.44, mustBeEmpty: 9 },
  // Rounds 42 to 45 by the extractor alone, after this session's fixes (first sight with the
  // engine in the ledger): 41.1% at 100%, 44.9% at 100%, 41.6% at 91.9% (its three misses on
  // ambiguous gold: "which comes to" after an equation, "38.4 kW", "14²/2 × 3") and 33.3% at 100%.
  { name: 'blind round 42', dir: 'test/fixtures/blind42', precision: 0.99, coverage: 0.41, mustBeEmpty: 7 },
  { name: 'blind round 43', dir: 'test/fixtures/blind43', precision: 0.99, coverage: 0.44, mustBeEmpty: 11 },
  { name: 'blind round 44', dir: 'test/fixtures/blind44', precision: 0.91, coverage: 0.4, mustBeEmpty: 8 },
  { name: 'blind round 45', dir: 'test/fixtures/blind45', precision: 0.99, coverage: 0.32, mustBeEmpty: 6 },
  // Rounds 46 and 47 by the extractor alone (46 after its one fix, the marker's; 47 as measured):
  // 41.1% at 91.9% (its three misses on ambiguous gold: m for M, v for u) and 44.1% at 100%.
  { name: 'blind round 46', dir: 'test/fixtures/blind46', precision: 0.91, coverage: 0.4, mustBeEmpty: 8 },
  { name: 'blind round 47', dir: 'test/fixtures/blind47', precision: 0.99, coverage: 0.43, mustBeEmpty: 8 },
  // Rounds 48 and 49 by the extractor alone (49 after its one fix, "forgot the half" revising the
  // line before): 42.0% at 100% and 54.4% at 100%.
  { name: 'blind round 48', dir: 'test/fixtures/blind48', precision: 0.99, coverage: 0.41, mustBeEmpty: 10 },
  { name: 'blind round 49', dir: 'test/fixtures/blind49', precision: 0.99, coverage: 0.54, mustBeEmpty: 7 },
  // Rounds 50 and 51 by the extractor alone (51 after its one fix, a conversion in words): 55.9% at
  // 94.2% (S5016 q4, S5018 q3, S5024 q1: links whose numbers differ, which the engine sends to
  // review) and 47.8% at 95.3% (S5123 q3, "Fd/(ηq) = 9.0 L" read as written where its gold makes the
  // expression the target's value; S5119 q1 on ambiguous gold).
  {
    name: 'blind round 50',
    dir: 'test/fixtures/blind50',
    precision: 0.94,
    coverage: 0.53,
    mustBeEmpty: 9,
    allowedMisses: ['S5018 q3', 'S5024 q1'],
  },
  { name: 'blind round 51', dir: 'test/fixtures/blind51', precision: 0.95, coverage: 0.47, mustBeEmpty: 6, allowedMisses: ['S5123 q3'] },
  // Rounds 52 to 57 (session 30) by the extractor alone, after the fixes made with sight of them:
  // 34.4%, 42.2%, 51.7%, 49.4%, 54.0% and 38.9% coverage; precision 100% but for one read each of
  // ambiguous gold in 55 (S5508 q2) and 56 (S5613 q2, "which comes to 19.3 m/s" after a chain).
  { name: 'blind round 52', dir: 'test/fixtures/blind52', precision: 0.99, coverage: 0.34, mustBeEmpty: 7 },
  { name: 'blind round 53', dir: 'test/fixtures/blind53', precision: 0.99, coverage: 0.41, mustBeEmpty: 7 },
  { name: 'blind round 54', dir: 'test/fixtures/blind54', precision: 0.99, coverage: 0.51, mustBeEmpty: 8 },
  { name: 'blind round 55', dir: 'test/fixtures/blind55', precision: 0.97, coverage: 0.46, mustBeEmpty: 11 },
  { name: 'blind round 56', dir: 'test/fixtures/blind56', precision: 0.97, coverage: 0.51, mustBeEmpty: 11 },
  { name: 'blind round 57', dir: 'test/fixtures/blind57', precision: 0.99, coverage: 0.38, mustBeEmpty: 6 },
  // Rounds 58 and 59 by the extractor alone (58 after its one fix, "Ball velocity"): 50.0% at 95.6%
  // (two reads of ambiguous gold) and 58.4% at 96.2% (S5912 q1: "ratio = R^2/r^2" left out as a
  // quantity the question lacks, where its gold writes the ratio as p_2/p_1; S5906 q2 on ambiguous gold).
  { name: 'blind round 58', dir: 'test/fixtures/blind58', precision: 0.95, coverage: 0.48, mustBeEmpty: 8 },
  { name: 'blind round 59', dir: 'test/fixtures/blind59', precision: 0.96, coverage: 0.58, mustBeEmpty: 11, allowedMisses: ['S5912 q1'] },
  // Rounds 60 and 61 by the extractor alone after session 31's fixes with sight of them: 57.3% at
  // 96.1% (two reads of ambiguous gold) and 30.7% at 100%. First sight, with the engine: 57.3% at
  // 92.2% and 35.2% at 96.8% (docs/extractor-ledger.md).
  { name: 'blind round 60', dir: 'test/fixtures/blind60', precision: 0.96, coverage: 0.57, mustBeEmpty: 11 },
  { name: 'blind round 61', dir: 'test/fixtures/blind61', precision: 0.99, coverage: 0.3, mustBeEmpty: 11 },
  // Rounds 62 and 63 by the extractor alone after session 31's fixes with sight of them: 53.4% at
  // 100% and 57.8% at 98.1% (its miss on ambiguous gold: "… or is it E = QV? I'll go with E = QV").
  // First sight, with the engine: 53.4% at 95.7% and 54.4% at 98.0%.
  { name: 'blind round 62', dir: 'test/fixtures/blind62', precision: 0.99, coverage: 0.53, mustBeEmpty: 9 },
  { name: 'blind round 63', dir: 'test/fixtures/blind63', precision: 0.98, coverage: 0.57, mustBeEmpty: 8 },
  // Rounds 64 and 65 by the extractor alone after session 31's fixes with sight of them: 29.2% at
  // 100% and 51.7% at 97.8% (S6522 q3 on ambiguous gold, "3.0 kV" recorded by its writer in
  // volts). First sight, with the engine: 30.3% at 96.3% and 55.1% at 95.9%.
  { name: 'blind round 64', dir: 'test/fixtures/blind64', precision: 0.99, coverage: 0.29, mustBeEmpty: 6 },
  { name: 'blind round 65', dir: 'test/fixtures/blind65', precision: 0.95, coverage: 0.5, mustBeEmpty: 8 },
  // Rounds 66 and 67 by the extractor alone, as measured (nothing fixed with sight of them): 47.2% at
  // 95.2% (S6607 q4, which the engine's checks hold back; S6617 q2 on ambiguous gold, v written for
  // v_0) and 47.7% at 100%. First sight, with the engine: 48.3% at 97.7% and 46.6% at 100%.
  { name: 'blind round 66', dir: 'test/fixtures/blind66', precision: 0.95, coverage: 0.47, mustBeEmpty: 9, allowedMisses: ['S6607 q4'] },
  { name: 'blind round 67', dir: 'test/fixtures/blind67', precision: 0.99, coverage: 0.47, mustBeEmpty: 10 },
  // Rounds 68 to 71 by the extractor alone after session 32's fixes with sight of them: 49.5% at
  // 100%, 36.7% at 97.0% (S6914 q2: "mu = (m+M)v" read as μ where the question has m, u and mu,
  // not fixed), 41.6% at 78.4% and 45.6% at 100%. Round 70's writer records a chain's last number
  // as its head's value (F = 2730 where "F = … = 2730"), not the link as written (convention 5):
  // six of its misses, the seventh S7016 q2 (a bare expression, then "= 2730 N" on the next line).
  { name: 'blind round 68', dir: 'test/fixtures/blind68', precision: 0.99, coverage: 0.49, mustBeEmpty: 7 },
  { name: 'blind round 69', dir: 'test/fixtures/blind69', precision: 0.96, coverage: 0.36, mustBeEmpty: 6, allowedMisses: ['S6914 q2'] },
  {
    name: 'blind round 70',
    dir: 'test/fixtures/blind70',
    precision: 0.78,
    coverage: 0.41,
    mustBeEmpty: 9,
    allowedMisses: ['S7001 q2', 'S7004 q2', 'S7005 q2', 'S7008 q1', 'S7016 q2', 'S7019 q2', 'S7022 q2'],
  },
  { name: 'blind round 71', dir: 'test/fixtures/blind71', precision: 0.99, coverage: 0.45, mustBeEmpty: 9 },
  // Rounds 72 and 73 by the extractor alone after session 32's fixes with sight of them: 52.2% and
  // 28.9%, both at 100% (first sight, with the engine: 52.2% at 95.7% and 30.0% at 96.3%).
  { name: 'blind round 72', dir: 'test/fixtures/blind72', precision: 0.99, coverage: 0.51, mustBeEmpty: 7 },
  { name: 'blind round 73', dir: 'test/fixtures/blind73', precision: 0.99, coverage: 0.28, mustBeEmpty: 7 },
];

for (const spec of SETS) {
  const set = loadDevSet(resolve(spec.dir))!;

  test(`${spec.name}: no blank, attachment-only or words-only response gets an equation`, () => {
    const qs = new Map(set.exam.questions.map((q) => [q.id, q]));
    const gold = new Map(set.gold.map((g) => [`${g.studentId}/${g.questionId}`, g]));
    let checked = 0;
    for (const r of set.responses) {
      const q = qs.get(r.questionId)!;
      const g = gold.get(`${r.studentId}/${r.questionId}`)!;
      const x = extractEmbedded(r.text, q);
      for (const e of x.equations) assert.ok(parseEquation(e.source, { variables: q.variables.map((v) => v.name) }).ok, e.source);
      if (!mustBeEmpty(g)) continue;
      checked++;
      assert.deepEqual(x.equations, [], `${r.studentId} ${r.questionId}`);
      if (g.tags.includes('blank')) assert.equal(x.status, 'blank');
      if (g.tags.includes('attachment')) assert.ok(x.flags.includes('attachment'), `${r.studentId} ${r.questionId}`);
    }
    assert.ok(checked >= spec.mustBeEmpty, `only ${checked} rows checked`);
  });

  test(
    `${spec.name}: precision >= ${100 * spec.precision}% and coverage >= ${100 * spec.coverage}% against gold (entailment comparator)`,
    { timeout: 120_000 },
    async () => {
      const { compare, close } = await entailerComparator();
      try {
        const r = await evaluateExtraction(set.exam, set.responses, set.gold, compare);
        const msg = formatExtractReport(r, { wrong: true });
        assert.equal(r.violations.length, 0, msg);
        assert.ok(r.overall.precision >= spec.precision, msg);
        assert.ok(r.overall.coverage >= spec.coverage, msg);
        // Every confident miss is on a response whose gold is marked ambiguous.
        assert.deepEqual(
          r.wrong.filter((w) => !w.ambiguous).map((w) => `${w.studentId} ${w.questionId}`),
          spec.allowedMisses ?? [],
          msg,
        );
      } finally {
        await close();
      }
    },
  );
}
