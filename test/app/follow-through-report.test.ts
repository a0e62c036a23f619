// The student's reports (plain text and HTML) say when a mark was earned by follow-through, from
// which of their equations, and what it was checked against.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { report } from '../../electron/app/reports.ts';
import { studentReportHtml } from '../../electron/app/report-html.ts';
import { parseExamJson } from '../../electron/engine/io/exam.ts';
import type { ApiResponse } from '../../shared/api.ts';

const demo = parseExamJson(readFileSync(new URL('../../resources/demo/exam.json', import.meta.url), 'utf8')).exam;
const proved = { holds: true, method: 'z3-proved' } as const;
const detail = {
  studentId: 'S01',
  questionId: 'q1',
  text: 't = u/(2g), so H = 3u^2/(8g)',
  total: 1,
  available: 5,
  current: {
    source: 'embedded',
    equations: [
      { source: 'Eq(t, u/(2*g))', latex: 't = \\frac{u}{2 g}' },
      { source: 'Eq(H, 3*u**2/(8*g))', latex: 'H = \\frac{3 u^{2}}{8 g}' },
    ],
  },
  inconsistent: [],
  regrades: [],
  items: [
    { itemId: 'a', description: 'Time to the top', available: 1, awarded: 0, final: 0, outcome: 'withheld', match: 'implied', evidence: [] },
    {
      itemId: 'b',
      description: 'Energy relation',
      available: 1,
      awarded: 1,
      final: 1,
      outcome: 'awarded',
      match: 'implied',
      evidence: [
        {
          studentIndex: 1,
          student: 'Eq(H, 3*u**2/(8*g))',
          acceptIndex: 1,
          accepted: 'Eq(H, u*t - g*t**2/2)',
          forward: proved,
          backward: proved,
          followThrough: { fromItem: 'a', fromStudent: [0], relation: 'Eq(H, u*u/(2*g) - g*(u/(2*g))**2/2)' },
        },
      ],
    },
  ],
} as unknown as ApiResponse<'response.get'>;

test('plain-text report: earned by follow-through from your equation 1, checked against the relation on your result', () => {
  const text = report(detail, demo);
  assert.match(
    text,
    /earned by follow-through from your equation 1 \(your result for item a was wrong\): equation 2 Eq\(H, 3\*u\*\*2\/\(8\*g\)\) {2}vs {2}Eq\(H, u\*u\/\(2\*g\) - g\*\(u\/\(2\*g\)\)\*\*2\/2\)/,
  );
  assert.match(text, /equation => relation: holds \(z3-proved\); relation => equation: holds \(z3-proved\)/);
});

test('HTML report: the follow-through in words, the relation one click away', () => {
  const html = studentReportHtml(demo, 'S01', [detail]);
  assert.match(html, /Earned by follow-through from your equation 1: your result for item a was wrong, but your equation 2 follows correctly from it\./);
  assert.match(html, /Checked against Eq\(H, u\*u\/\(2\*g\) - g\*\(u\/\(2\*g\)\)\*\*2\/2\), this item's relation with your own result put in/);
});
