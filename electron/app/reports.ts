// What the app hands out as words: the per-response report a contesting student can be shown,
// and the words of the response history.
import type { ApiResponse } from '../../shared/api.ts';
import type { Exam } from '../../shared/exam.ts';
import { verdictLine } from '../../shared/format/verdict.ts';

/** The audit log's actions, in the words the response history shows. */
export const AUDIT_WORDS: Record<string, string> = {
  'response.import': 'imported',
  'response.update': 'text replaced by a new import',
  'extraction.save': 'equations read',
  'reading.pick': 'reading picked by the instructor',
  'marks.save': 'marked',
  'override.set': 'mark overridden',
  'override.clear': 'override removed',
  'comment.add': 'comment',
  'earlier.set-aside': 'set aside: made on earlier text',
  'earlier.confirm': 'confirmed on the new text',
  'earlier.drop': 'dropped (made on earlier text)',
  'regrade.request': 'regrade requested',
  'regrade.resolve': 'regrade request answered',
};

/** An audited value, shortened for the response history. */
export function brief(v: unknown): string {
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.equations)) return `${o.source ?? ''} ${JSON.stringify(o.equations)}`.trim();
    if ('total' in o && 'items' in o) return `total ${o.total} ${JSON.stringify(o.items)}`;
    if ('awarded' in o) return String(o.awarded);
    if ('body' in o) return String(o.body);
    if ('text' in o) return o.text === null ? '(no text)' : `${String(o.text).slice(0, 60)}…`;
  }
  return JSON.stringify(v).slice(0, 200);
}

/** The plain-text report of one response, to show a student who contests a mark. */
export function report(d: ApiResponse<'response.get'>, exam: Exam): string {
  const q = exam.questions.find((x) => x.id === d.questionId)!;
  const lines = [
    `Equimark marking report`,
    `Exam: ${exam.title || exam.id}`,
    `Student: ${d.studentId}    Question: ${q.id}${q.title ? ` (${q.title})` : ''}`,
    `Mark: ${d.total ?? '-'} / ${d.available}`,
    ``,
    `What was written:`,
    ...d.text.split('\n').map((l) => `  | ${l}`),
    ``,
    `Equations read (${d.current ? d.current.source : 'none'}):`,
    ...(d.current?.equations.length ? d.current.equations.map((e, i) => `  ${i + 1}. ${e.source}`) : ['  (none)']),
    ...d.inconsistent.map((x) => `  ! ${x.student} has no solution under the question's assumptions: it earns nothing`),
    ...(d.dimensions ?? []).map((x) => `  ! dimensions differ in ${x.student}: ${x.note}`),
    ``,
    `Marking scheme:`,
  ];
  for (const it of d.items) {
    lines.push(`  [${it.itemId}] ${it.description} — ${it.final ?? 'open'} / ${it.available}${it.override ? ' (set by the instructor)' : ''}`);
    const ev = it.evidence[0];
    if (ev?.followThrough && it.outcome === 'awarded') {
      const ft = ev.followThrough;
      lines.push(
        `      earned by follow-through from your equation ${ft.fromStudent.map((k) => k + 1).join(', ')} (your result for item ${ft.fromItem} was wrong): equation ${ev.studentIndex + 1} ${ev.student}  vs  ${ft.relation ?? ev.accepted} (${ev.accepted} with your result put in)`,
      );
      lines.push(`      equation => relation: ${verdictLine(ev.forward)}${ev.backward ? `; relation => equation: ${verdictLine(ev.backward)}` : ''}`);
    } else if (ev?.numeric) {
      lines.push(
        `      ${ev.numeric.source === 'stated' ? `stated: ${ev.numeric.written}` : `equation ${ev.studentIndex + 1} ${ev.student} with the given values`}  vs expected  ${ev.accepted} ${ev.numeric.tolerance}`,
      );
      lines.push(`      ${ev.numeric.note}`);
    } else if (ev) {
      lines.push(`      ${it.outcome === 'awarded' ? 'earned by' : 'closest'}: equation ${ev.studentIndex + 1} ${ev.student}  vs accepted  ${ev.accepted}`);
      lines.push(`      student => accepted: ${verdictLine(ev.forward)}${ev.backward ? `; accepted => student: ${verdictLine(ev.backward)}` : ''}`);
    } else if (it.outcome === 'manual') lines.push('      marked by the instructor');
    if (it.override) lines.push(`      instructor: "${it.override.comment}" (automatic mark ${it.awarded ?? 'open'})`);
  }
  return lines.join('\n') + '\n';
}
