// Exams and their questions.
import { ExamSchema, type Exam } from '../../../shared/exam.ts';
import { audit } from './audit.ts';
import { json, now, parse, type Row, type Statements } from './statements.ts';

/**
 * What a reading depends on: the variables' names and descriptions (the readers map words to
 * symbols by them). Assumptions, ranges and units change marks, not readings.
 */
const readingInputs = (q: Exam['questions'][number]): string => json(q.variables.map((v) => [v.name, v.description]));

/** Whether an edit of a question makes its readers' readings be read again (its corrections and given lists stay). */
export const readsAgain = (before: Exam['questions'][number], after: Exam['questions'][number]): boolean => readingInputs(before) !== readingInputs(after);

/** JSON with object keys sorted: two exams that differ only in key order compare equal. */
function stable(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/** A question as far as marking goes: its wording (title, prompt, descriptions) changes no mark. */
const markingOf = (q: Exam['questions'][number]): string =>
  stable({
    ...q,
    title: '',
    prompt: '',
    variables: q.variables.map((v) => ({ ...v, description: '' })),
    scheme: q.scheme.map((s) => ({ ...s, description: '' })),
  });

/** What the exam says beside its questions (constants, say): a change there re-marks every question. */
const examWide = (e: Exam): string => stable({ ...e, title: '', questions: [] });

/**
 * The questions whose marks a change of the exam redoes: one whose marking changed (its wording
 * aside), or that is read again (readsAgain), or every one when something exam-wide changed
 * (constants, units); a new title or prompt redoes none. Saving (importExam) and its preview
 * (preview-scheme.ts) both ask this.
 */
export function remarkedBy(before: Exam, after: Exam): string[] {
  const wide = examWide(before) !== examWide(after);
  return after.questions
    .filter((q) => {
      const was = before.questions.find((x) => x.id === q.id);
      return wide || !was || readsAgain(was, q) || markingOf(was) !== markingOf(q);
    })
    .map((q) => q.id);
}

/**
 * The scheme items of a re-marked question whose marking changed, when nothing else of its
 * marking did: same items in the same order, the question and the exam otherwise the same (its
 * wording aside), and no follow-through (an item's outcome then rests on others'). Null when the
 * whole question must be marked again. The other items' marks are those already stored: marking
 * is item by item (decide/marking.ts), on the same equations, domain and units.
 */
export function changedItems(before: Exam, after: Exam, questionId: string): string[] | null {
  const was = before.questions.find((q) => q.id === questionId);
  const now = after.questions.find((q) => q.id === questionId);
  if (!was || !now || examWide(before) !== examWide(after) || readsAgain(was, now)) return null;
  const rest = (q: Exam['questions'][number]): string => markingOf({ ...q, scheme: [] });
  if (rest(was) !== rest(now) || was.scheme.length !== now.scheme.length) return null;
  if ([...was.scheme, ...now.scheme].some((s) => s.follow_through?.length)) return null;
  const item = (s: Exam['questions'][number]['scheme'][number]): string => stable({ ...s, description: '' });
  if (was.scheme.some((s, i) => s.id !== now.scheme[i].id)) return null;
  return now.scheme.filter((s, i) => item(s) !== item(was.scheme[i])).map((s) => s.id);
}

/** Reading sources an exam edit keeps: the instructor's corrections and given lists. */
export const KEPT_ON_EDIT = ['given', 'manual'] as const;

/**
 * Store an exam (already validated, see exam-io.ts). Re-importing the same exam changes
 * nothing; a changed exam replaces the stored one and drops the marks of the questions the change
 * touches (they must be redone; all of them when something exam-wide changed),
 * and the readers' extractions too when a question's variable names or descriptions changed
 * (the instructor's corrections and given lists are kept). Refuses to drop a question that has
 * responses.
 */
export function importExam(
  st: Statements,
  exam: Exam,
  /**
   * Marks to keep although their question is re-marked: the caller marked these responses under
   * this exam and found their stored marks exactly those (grade.ts's marksKeptByChange). Kept only
   * while the response's reading is still the one they were marked on.
   */
  kept: readonly { responseId: number; extractionId: number }[] = [],
): { examId: string; created: boolean; changed: boolean } {
  const parsed = ExamSchema.parse(exam);
  const text = json(parsed);
  return st.transaction(() => {
    const old = st.sql('SELECT json FROM exams WHERE id = ?').get(parsed.id) as Row | undefined;
    if (old && old.json === text) return { examId: parsed.id, created: false, changed: false };
    if (old) {
      const oldExam = parse<Exam>(old.json);
      const keep = new Set(parsed.questions.map((q) => q.id));
      for (const q of oldExam.questions) {
        if (keep.has(q.id)) continue;
        const n = (st.sql('SELECT count(*) AS n FROM responses WHERE exam_id = ? AND question_id = ?').get(parsed.id, q.id) as Row).n as number;
        if (n > 0) throw new Error(`exam '${parsed.id}': question '${q.id}' has ${n} responses in this workspace and can't be removed`);
        st.sql('DELETE FROM questions WHERE exam_id = ? AND id = ?').run(parsed.id, q.id);
      }
      for (const q of oldExam.questions) {
        const nq = parsed.questions.find((x) => x.id === q.id);
        if (nq && readsAgain(q, nq)) {
          // The instructor's corrections ('manual') and given lists stay: a corrected equation that
          // no longer parses is flagged when it is marked (grade.ts), never dropped unseen.
          st.sql(
            `DELETE FROM extractions WHERE response_id IN (SELECT id FROM responses WHERE exam_id = ? AND question_id = ?) AND source NOT IN (${KEPT_ON_EDIT.map((k) => `'${k}'`).join(', ')})`,
          ).run(parsed.id, q.id);
        }
      }
      const readingOf = new Map(kept.map((k) => [k.responseId, k.extractionId]));
      // Marks kept only while their reading is the one they were found unchanged on.
      const keptIds = json(
        (
          st
            .sql('SELECT response_id, extraction_id FROM mark_results WHERE response_id IN (SELECT value FROM json_each(?))')
            .all(json(kept.map((k) => k.responseId))) as Row[]
        )
          .map((r) => [Number(r.response_id), Number(r.extraction_id)] as const)
          .filter(([rid, xid]) => readingOf.get(rid) === xid)
          .map(([rid]) => rid),
      );
      for (const qid of remarkedBy(oldExam, parsed))
        st.sql(
          'DELETE FROM mark_results WHERE response_id IN (SELECT id FROM responses WHERE exam_id = ? AND question_id = ?) AND response_id NOT IN (SELECT value FROM json_each(?))',
        ).run(parsed.id, qid, keptIds);
      st.sql('UPDATE exams SET title = ?, json = ?, imported_at = ? WHERE id = ?').run(parsed.title, text, now(), parsed.id);
    } else {
      st.sql('INSERT INTO exams (id, title, json, imported_at) VALUES (?, ?, ?, ?)').run(parsed.id, parsed.title, text, now());
    }
    const up = st.sql(
      'INSERT INTO questions (exam_id, id, position, json) VALUES (?, ?, ?, ?) ON CONFLICT (exam_id, id) DO UPDATE SET position = excluded.position, json = excluded.json',
    );
    parsed.questions.forEach((q, i) => up.run(parsed.id, q.id, i, json(q)));
    audit(st, 'exam.import', 'exam', parsed.id, old ? parse(old.json) : undefined, parsed);
    return { examId: parsed.id, created: !old, changed: !!old };
  });
}

/**
 * Whether storing this exam would drop marks the instructor has seen: the exam is stored with
 * marks, and this version differs from it. The app previews such an import instead of applying it.
 */
export function importDropsMarks(st: Statements, exam: Exam): boolean {
  const parsed = ExamSchema.parse(exam);
  const old = st.sql('SELECT json FROM exams WHERE id = ?').get(parsed.id) as Row | undefined;
  if (!old || old.json === json(parsed)) return false;
  const marked = st.sql('SELECT 1 FROM mark_results m JOIN responses r ON r.id = m.response_id WHERE r.exam_id = ? AND r.question_id = ? LIMIT 1');
  return remarkedBy(parse<Exam>(old.json), parsed).some((qid) => !!marked.get(parsed.id, qid));
}

export function getExam(st: Statements, examId: string): Exam | undefined {
  const r = st.sql('SELECT json FROM exams WHERE id = ?').get(examId) as Row | undefined;
  return r ? parse<Exam>(r.json) : undefined;
}

export function listExams(st: Statements): { id: string; title: string; importedAt: string; responses: number }[] {
  return (
    st
      .sql('SELECT e.id, e.title, e.imported_at, (SELECT count(*) FROM responses r WHERE r.exam_id = e.id) AS n FROM exams e ORDER BY e.imported_at')
      .all() as Row[]
  ).map((r) => ({
    id: String(r.id),
    title: String(r.title),
    importedAt: String(r.imported_at),
    responses: Number(r.n),
  }));
}
