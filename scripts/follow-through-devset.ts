// What follow-through changes on the development set's gold lists (not a test: a figure to read).
// A copy of ../shared/data/exam.json where q2.c (the range, an answer) follows through from q2.a
// (the time of flight) through the relation R = v_0*cos(theta)*t, added to q2.c's accepted forms.
// Marks every q2 gold list with the exam as it is and with the copy, and prints each list whose
// q2 marks differ, with how (follow-through from which equation, or the added relation itself),
// so each can be read by hand. Run: node --import tsx scripts/follow-through-devset.ts [DATA_DIR]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validateExam } from '../electron/engine/io/exam.ts';
import { parseEquationsCsv } from '../electron/engine/io/csv/equations.ts';
import { markEquations } from '../electron/engine/decide/marking.ts';
import { createEngine } from '../electron/engine/decide/engine-factory.ts';

const dir = resolve(process.argv[2] ?? '../shared/data');
const data = JSON.parse(readFileSync(join(dir, 'exam.json'), 'utf8'));
const original = validateExam(data);
const copy = structuredClone(data);
const q2 = copy.questions.find((q: { id: string }) => q.id === 'q2');
const c = q2.scheme.find((s: { id: string }) => s.id === 'c');
c.accept.push('Eq(R, v_0*cos(theta)*t)');
c.follow_through = ['a'];
const withFt = validateExam(copy);

const engine = await createEngine();
const rows = parseEquationsCsv(readFileSync(join(dir, 'gold.csv'), 'utf8'), (id) => original.questions.get(id)?.variables).rows.filter(
  (r) => r.questionId === 'q2',
);
let lists = 0;
const counts = { byFollowThrough: 0, byRelation: 0, lost: 0, undecided: 0 };
for (const r of rows) {
  if (r.error) continue;
  lists++;
  const before = await markEquations(engine, original.questions.get('q2')!, r.equations);
  const after = await markEquations(engine, withFt.questions.get('q2')!, r.equations);
  const b = before.items.find((i) => i.itemId === 'c')!;
  const a = after.items.find((i) => i.itemId === 'c')!;
  if (a.outcome === b.outcome && a.awarded === b.awarded) continue;
  const ev = a.evidence[0];
  const how =
    a.outcome === 'awarded' && ev?.followThrough
      ? `follow-through from equation ${ev.followThrough.fromStudent[0] + 1} (${r.sources[ev.followThrough.fromStudent[0]]}) via equation ${ev.studentIndex + 1}; relation ${ev.followThrough.relation}`
      : a.outcome === 'awarded'
        ? `the added relation itself (equation ${ev.studentIndex + 1})`
        : `${b.outcome} -> ${a.outcome}: ${a.note ?? ''}`;
  if (a.outcome === 'awarded' && ev?.followThrough) counts.byFollowThrough++;
  else if (a.outcome === 'awarded') counts.byRelation++;
  else if (a.outcome === 'undecided') counts.undecided++;
  else counts.lost++;
  console.log(`${r.studentId} q2.c ${b.outcome} -> ${a.outcome}: ${how}`);
  console.log(`    a: ${after.items.find((i) => i.itemId === 'a')!.outcome}; ${r.sources.join(' | ')}`);
}
console.log(`q2 gold lists: ${lists}; q2.c changed: ${JSON.stringify(counts)}`);
await engine.close();
