// Responses: importing them (texts, or given equation lists), the steps they still need, and
// reading them back as the class list and the detail view.
import type { GivenRow, ImportPlan, ImportResponsesResult, ResponseDetail, ResponseSummary } from './workspace.ts';
import { audit } from './audit.ts';
import { getExam } from './exams.ts';
import { ENGINE_ERROR_FLAG, getExtraction, sameExtraction, WAITING_FLAG, writeExtraction } from './extractions.ts';
import { commentsOf, dimensionsOf, getMarks, overridesOf } from './marks.ts';
import { json, now, parse, type Row, type Statements } from './statements.ts';
import type { ExtractionSource, ExtractionStatus } from '../../../shared/extraction.ts';
import type { ResponseMarks } from '../../../shared/marks.ts';
import { setAsideChanges } from './earlier.ts';

/**
 * What an import of these rows would do, changing nothing: which (student, question) pairs are
 * new, which hold the stored text, and which would replace a stored text (with what the
 * instructor did on the old one: a corrected reading, overrides).
 */
export function classifyResponses(st: Statements, examId: string, rows: readonly { studentId: string; questionId: string; text: string }[]): ImportPlan {
  const get = st.sql('SELECT id, text FROM responses WHERE exam_id = ? AND student_id = ? AND question_id = ?');
  const manual = st.sql("SELECT 1 FROM extractions WHERE response_id = ? AND source = 'manual'");
  const ovs = st.sql('SELECT count(*) AS n FROM overrides WHERE response_id = ?');
  const plan: ImportPlan = { inserted: 0, unchanged: 0, changed: [] };
  for (const r of rows) {
    const old = get.get(examId, r.studentId, r.questionId) as Row | undefined;
    if (!old) plan.inserted++;
    else if (old.text === r.text) plan.unchanged++;
    else
      plan.changed.push({
        studentId: r.studentId,
        questionId: r.questionId,
        oldText: old.text === null ? null : String(old.text),
        newText: r.text,
        corrected: !!manual.get(old.id),
        overrides: Number((ovs.get(old.id) as Row).n),
      });
  }
  return plan;
}

/**
 * Store responses (already checked, see csv/responses.ts) in one transaction: new ones are
 * inserted; identical ones are left alone; a changed text replaces the old one (or, with
 * `changed: 'keep'`, is left out) and drops its extraction and marks. What the instructor did
 * on the old text (a corrected reading, overrides) is never applied to the new one: it is set
 * aside as a change made on earlier text (earlier.ts), to confirm or drop. Throws (and stores
 * nothing) if the exam or a question is unknown.
 */
export function importResponses(
  st: Statements,
  examId: string,
  rows: readonly { studentId: string; questionId: string; text: string }[],
  changed: 'replace' | 'keep' = 'replace',
): ImportResponsesResult {
  return st.transaction(() => {
    if (!getExam(st, examId)) throw new Error(`no exam '${examId}' in this workspace`);
    const get = st.sql('SELECT id, text FROM responses WHERE exam_id = ? AND student_id = ? AND question_id = ?');
    const ins = st.sql('INSERT INTO responses (exam_id, student_id, question_id, text, imported_at) VALUES (?, ?, ?, ?, ?)');
    const upd = st.sql('UPDATE responses SET text = ?, imported_at = ? WHERE id = ?');
    const dropX = st.sql('DELETE FROM extractions WHERE response_id = ?');
    const res: ImportResponsesResult = { inserted: 0, updated: 0, unchanged: 0, kept: 0, setAside: 0 };
    for (const r of rows) {
      const key = `${examId}/${r.studentId}/${r.questionId}`;
      const old = get.get(examId, r.studentId, r.questionId) as Row | undefined;
      if (!old) {
        ins.run(examId, r.studentId, r.questionId, r.text, now());
        audit(st, 'response.import', 'response', key, undefined, { text: r.text });
        res.inserted++;
      } else if (old.text !== r.text && changed === 'keep') res.kept++;
      else if (old.text !== r.text) {
        res.setAside += setAsideChanges(st, Number(old.id), old.text === null ? null : String(old.text));
        upd.run(r.text, now(), old.id);
        dropX.run(old.id);
        audit(st, 'response.update', 'response', key, { text: old.text }, { text: r.text });
        res.updated++;
      } else res.unchanged++;
    }
    return res;
  });
}

/**
 * Store given equation lists (an equations CSV: gold or a corrected extraction) as responses
 * without text and their extractions (source 'given'), in one transaction. A list identical
 * to the stored extraction is left alone (its marks stay).
 */
export function importGiven(st: Statements, examId: string, rows: readonly GivenRow[]): ImportResponsesResult {
  return st.transaction(() => {
    if (!getExam(st, examId)) throw new Error(`no exam '${examId}' in this workspace`);
    const ins = st.sql('INSERT INTO responses (exam_id, student_id, question_id, text, imported_at) VALUES (?, ?, ?, NULL, ?)');
    const res: ImportResponsesResult = { inserted: 0, updated: 0, unchanged: 0, kept: 0, setAside: 0 };
    // What the exam holds for these rows, read in one query (their keys, not the whole exam: a
    // class's file is imported a piece at a time): a list stored exactly as given (same JSON) is
    // unchanged without parsing anything; only the others are compared in full. CROSS JOIN keeps
    // the keys outside, each a lookup in the (exam, student, question) index (the planner would
    // otherwise scan the exam's responses once per key).
    const stored = new Map<string, Row>();
    for (const row of st
      .sql(
        `SELECT r.id, r.student_id, r.question_id, x.source, x.status, x.flags, x.equations, x.notes FROM json_each(?) k
         CROSS JOIN responses r ON r.exam_id = ? AND r.student_id = k.value ->> 0 AND r.question_id = k.value ->> 1
         LEFT JOIN extractions x ON x.response_id = r.id`,
      )
      .all(json(rows.map((r) => [r.studentId, r.questionId])), examId) as Row[])
      stored.set(`${row.student_id}\u0000${row.question_id}`, row);
    for (const r of rows) {
      let row = stored.get(`${r.studentId}\u0000${r.questionId}`);
      const x = r.extraction;
      if (
        row &&
        row.source === x.source &&
        row.status === x.status &&
        row.flags === json(x.flags) &&
        row.equations === json(x.equations) &&
        row.notes === json(x.notes)
      ) {
        res.unchanged++;
        continue;
      }
      if (!row) {
        const id = ins.run(examId, r.studentId, r.questionId, now()).lastInsertRowid;
        audit(st, 'response.import', 'response', `${examId}/${r.studentId}/${r.questionId}`, undefined, { text: null });
        row = { id: Number(id) };
        res.inserted++;
      }
      const cur = getExtraction(st, Number(row.id));
      if (cur && sameExtraction(cur, r.extraction)) {
        res.unchanged++;
        continue;
      }
      if (cur) res.updated++;
      writeExtraction(st, Number(row.id), r.extraction, 'given');
    }
    return res;
  });
}

/** The text of each response of the exam (null for a given list), by response id. */
export function responseTexts(st: Statements, examId: string): Map<number, string | null> {
  const rows = st.sql('SELECT id, text FROM responses WHERE exam_id = ?').all(examId) as Row[];
  return new Map(rows.map((r) => [Number(r.id), r.text === null ? null : String(r.text)]));
}

/** Ids of responses of the exam, in import order. */
export function responseIds(st: Statements, examId: string): number[] {
  return (st.sql('SELECT id FROM responses WHERE exam_id = ? ORDER BY id').all(examId) as Row[]).map((r) => Number(r.id));
}

/**
 * Each response of the exam as its id, student and question, in import order: what never changes
 * for a response, so enough to order the review list by student or question (and count it)
 * without reading its readings and marks.
 */
export function responseKeys(st: Statements, examId: string): { id: number; studentId: string; questionId: string }[] {
  // Read from the (exam, student, question) index alone, not the table's rows with their texts; then put in id order.
  return (st.sql('SELECT id, student_id, question_id FROM responses WHERE exam_id = ?').raw().all(examId) as unknown[][])
    .map((r) => ({ id: Number(r[0]), studentId: String(r[1]), questionId: String(r[2]) }))
    .sort((a, b) => a.id - b.id);
}

/** The exam's distinct student ids and question ids, each in SQLite's own (binary) order. */
export function responseNames(st: Statements, examId: string): { students: string[]; questions: string[] } {
  const col = (c: 'student_id' | 'question_id'): string[] =>
    (st.sql(`SELECT DISTINCT ${c} FROM responses WHERE exam_id = ? ORDER BY ${c}`).raw().all(examId) as unknown[][]).map((r) => String(r[0]));
  return { students: col('student_id'), questions: col('question_id') };
}

/**
 * Ids of a page of the exam's responses (optionally one question's) ordered by student then
 * question, or question then student, in SQLite's binary order of the ids (each pair is one response).
 */
export function responsesByName(
  st: Statements,
  examId: string,
  q: { questionId?: string; by: 'student' | 'question'; desc: boolean; offset: number; limit: number },
): number[] {
  const d = q.desc ? ' DESC' : '';
  const order = q.by === 'student' ? `student_id${d}, question_id${d}` : `question_id${d}, student_id${d}`;
  return (
    st
      .sql(`SELECT id FROM responses WHERE exam_id = ? AND (? IS NULL OR question_id = ?) ORDER BY ${order} LIMIT ? OFFSET ?`)
      .raw()
      .all(examId, q.questionId ?? null, q.questionId ?? null, q.limit, q.offset) as unknown[][]
  ).map((r) => Number(r[0]));
}

/** Which of these ids are responses of the exam. */
export function examResponsesAmong(st: Statements, examId: string, ids: readonly number[]): number[] {
  return (st.sql('SELECT id FROM responses WHERE id IN (SELECT value FROM json_each(?)) AND +exam_id = ?').all(JSON.stringify(ids), examId) as Row[]).map((r) =>
    Number(r.id),
  );
}

/** Responses that still need a step (see Workspace.pending). */
export function pending(
  st: Statements,
  examId: string,
  step: 'extract' | 'mark',
  waiting: boolean,
): { id: number; studentId: string; questionId: string; text: string | null }[] {
  const sql =
    step === 'extract'
      ? `SELECT r.id, r.student_id, r.question_id, r.text FROM responses r LEFT JOIN extractions x ON x.response_id = r.id WHERE r.exam_id = ? AND (x.id IS NULL${
          waiting ? ` OR EXISTS (SELECT 1 FROM json_each(x.flags) f WHERE f.value = '${WAITING_FLAG}')` : ''
        } OR (r.text IS NOT NULL AND x.source NOT IN ('manual', 'given') AND EXISTS (SELECT 1 FROM json_each(x.flags) f WHERE f.value = '${ENGINE_ERROR_FLAG}'))) ORDER BY r.id`
      : 'SELECT r.id, r.student_id, r.question_id, r.text FROM responses r JOIN extractions x ON x.response_id = r.id LEFT JOIN mark_results m ON m.response_id = r.id WHERE r.exam_id = ? AND m.response_id IS NULL ORDER BY r.id';
  return (st.sql(sql).all(examId) as Row[]).map((r) => ({
    id: Number(r.id),
    studentId: String(r.student_id),
    questionId: String(r.question_id),
    text: r.text === null ? null : String(r.text),
  }));
}

/**
 * The responses of these questions whose marks are stored (current for their reading), in id
 * order: what a scheme change would re-mark (see grade.ts's marksKeptByChange).
 */
export function markedOf(
  st: Statements,
  examId: string,
  questionIds: readonly string[],
): { id: number; studentId: string; questionId: string; text: string | null }[] {
  return (
    st
      .sql(
        'SELECT r.id, r.student_id, r.question_id, r.text FROM responses r JOIN mark_results m ON m.response_id = r.id WHERE r.exam_id = ? AND r.question_id IN (SELECT value FROM json_each(?)) ORDER BY r.id',
      )
      .all(examId, json(questionIds)) as Row[]
  ).map((r) => ({
    id: Number(r.id),
    studentId: String(r.student_id),
    questionId: String(r.question_id),
    text: r.text === null ? null : String(r.text),
  }));
}

export function findResponse(st: Statements, examId: string, studentId: string, questionId: string): number | undefined {
  const r = st.sql('SELECT id FROM responses WHERE exam_id = ? AND student_id = ? AND question_id = ?').get(examId, studentId, questionId) as Row | undefined;
  return r ? Number(r.id) : undefined;
}

// ---- reading ---------------------------------------------------------------------------------

function summary(st: Statements, r: Row): ResponseSummary {
  const id = Number(r.id);
  const x = getExtraction(st, id);
  const m = getMarks(st, id);
  const ov = overridesOf(st, id);
  const effective: Record<string, number | null> = {};
  for (const it of m?.items ?? []) effective[it.itemId] = it.awarded;
  for (const o of ov) effective[o.itemId] = o.awarded;
  return {
    id,
    examId: String(r.exam_id),
    studentId: String(r.student_id),
    questionId: String(r.question_id),
    extraction: x ? { id: x.id, status: x.status, source: x.source, flags: x.flags, equations: x.equations.map((e) => e.source) } : null,
    marks: m
      ? { total: m.total, available: m.available, status: m.status, inconsistent: m.inconsistent, ...(m.dimensions ? { dimensions: m.dimensions } : {}) }
      : null,
    effective,
    overrides: ov.length,
    overriddenItems: ov.map((o) => o.itemId),
    followThrough: (m?.items ?? []).filter((it) => it.outcome === 'awarded' && it.evidence[0]?.followThrough).map((it) => it.itemId),
    earlier: Number((st.sql('SELECT count(*) AS n FROM earlier_changes WHERE response_id = ?').get(id) as Row).n),
    openRegrades: Number((st.sql('SELECT count(*) AS n FROM regrade_requests WHERE response_id = ? AND reply IS NULL').get(id) as Row).n),
  };
}

/** Whether the stored exam has an item with `follow_through` (only then can a mark be earned by it). */
function declaresFollowThrough(st: Statements, examId: string): boolean {
  const r = st.sql(`SELECT instr(json, '"follow_through"') > 0 AS ft FROM exams WHERE id = ?`).get(examId) as Row | undefined;
  return Number(r?.ft ?? 0) === 1;
}

const FILTER = 'r.exam_id = ? AND (? IS NULL OR r.question_id = ?) AND (? IS NULL OR r.student_id = ?)';

/**
 * The effective marks (item -> the override if any, else the automatic mark; null: open) of the
 * responses `where` selects (over `responses r`, with `args`), the items each has an override
 * for, and (with `followThrough`) those awarded by follow-through. One function for the class
 * list and the answer groups' totals (questionEffectiveMarks), so a total is summed from the same
 * record, built in the same order, whoever reads it.
 */
function effectiveMarks(
  st: Statements,
  examId: string,
  where: string,
  args: unknown[],
  followThrough: boolean,
): { effective: Map<number, Record<string, number | null>>; overrides: Map<number, string[]>; followThrough: Map<number, string[]> } {
  const effective = new Map<number, Record<string, number | null>>();
  const overrides = new Map<number, string[]>();
  const byFollowThrough = new Map<number, string[]>();
  const at = (id: number): Record<string, number | null> => {
    let e = effective.get(id);
    if (!e) effective.set(id, (e = {}));
    return e;
  };
  for (const m of st
    .sql(
      // ft: awarded by follow-through (the key appears only in such evidence; no JSON is parsed),
      // looked for only when the exam declares follow-through. The change log's trigger on marks
      // (migration 11) names a response whose evidence changes only where this LIKE's answer does:
      // keep the two the same.
      `SELECT mk.response_id, mk.item_id, mk.awarded, ${
        followThrough && declaresFollowThrough(st, examId) ? `(mk.outcome = 'awarded' AND mk.evidence LIKE '%"followThrough"%')` : '0'
      } AS ft FROM marks mk JOIN responses r ON r.id = mk.response_id WHERE ${where} ORDER BY mk.response_id, mk.position`,
    )
    .all(...args) as Row[]) {
    at(Number(m.response_id))[String(m.item_id)] = m.awarded === null ? null : Number(m.awarded);
    if (Number(m.ft) === 1) byFollowThrough.set(Number(m.response_id), [...(byFollowThrough.get(Number(m.response_id)) ?? []), String(m.item_id)]);
  }
  for (const o of st
    .sql(
      `SELECT o.response_id, o.item_id, o.awarded FROM overrides o JOIN responses r ON r.id = o.response_id WHERE ${where} ORDER BY o.response_id, o.item_id`,
    )
    .all(...args) as Row[]) {
    const id = Number(o.response_id);
    at(id)[String(o.item_id)] = Number(o.awarded);
    overrides.set(id, [...(overrides.get(id) ?? []), String(o.item_id)]);
  }
  return { effective, overrides, followThrough: byFollowThrough };
}

/**
 * The effective marks of each marked response of one question (one with its marks stored: the
 * review list's rows with a total), by response id: what the answer groups' totals are summed
 * from (review/state.ts `effectiveTotal`) when they are given before the review list is read
 * whole (app/early-groups.ts). Nothing else of the response is read.
 */
export function questionEffectiveMarks(st: Statements, examId: string, questionId: string): Map<number, Record<string, number | null>> {
  const args = [examId, questionId, questionId, null, null];
  const marked = st
    .sql(`SELECT r.id FROM responses r JOIN mark_results m ON m.response_id = r.id WHERE ${FILTER}`)
    .raw()
    .all(...args) as unknown[][];
  const { effective } = effectiveMarks(st, examId, FILTER, args, false);
  return new Map(marked.map(([id]) => [Number(id), effective.get(Number(id)) ?? {}]));
}

/**
 * The class list of an exam, in import order; optionally one question or one student. Three
 * queries whatever the size (responses joined with extraction and marks; the item marks; the
 * overrides), and no evidence is parsed: what each row of the list needs, nothing more.
 */
export function listResponses(
  st: Statements,
  examId: string,
  filter: { questionId?: string; studentId?: string; offset?: number; limit?: number; ids?: readonly number[]; afterId?: number },
): ResponseSummary[] {
  const paged = filter.offset !== undefined || filter.limit !== undefined;
  // A page after the last id of the one before (an export reading the class a page at a time):
  // found through the primary key, where an offset would walk every row before it.
  const after = filter.afterId !== undefined ? ' AND r.id > ?' : '';
  // By ids (the app's review index re-reading the responses that changed): those of this exam only.
  const byIds = filter.ids !== undefined;
  // `+r.exam_id`: looked up by primary key, not by scanning the exam's index.
  const head = byIds ? '+r.exam_id = ? AND r.id IN (SELECT value FROM json_each(?))' : FILTER;
  let args: unknown[] = byIds
    ? [examId, JSON.stringify(filter.ids)]
    : [examId, filter.questionId ?? null, filter.questionId ?? null, filter.studentId ?? null, filter.studentId ?? null];
  if (after) args.push(filter.afterId);
  const rows = st
    .sql(
      `SELECT r.id, r.exam_id, r.student_id, r.question_id, x.id AS xid, x.status AS xstatus, x.source AS xsource, x.flags AS xflags, x.equations AS xequations,
         m.total, m.available, m.status AS mstatus, m.inconsistent, m.dimensions
       FROM responses r LEFT JOIN extractions x ON x.response_id = r.id LEFT JOIN mark_results m ON m.response_id = r.id
       WHERE ${head}${after} ORDER BY r.id${paged ? ' LIMIT ? OFFSET ?' : ''}`,
    )
    .all(...args, ...(paged ? [filter.limit ?? -1, filter.offset ?? 0] : [])) as Row[];
  // A page or a set of ids: the item marks and overrides of its rows only (the ids, through the primary keys).
  const where = paged || byIds ? 'r.id IN (SELECT value FROM json_each(?))' : FILTER;
  if (paged || byIds) args = [JSON.stringify(rows.map((r) => Number(r.id)))];
  const { effective, overrides, followThrough } = effectiveMarks(st, examId, where, args, true);
  // Changes set aside by a re-import, and open regrade requests: counted per response in one query each.
  const countBy = (table: string, extra: string): Map<number, number> =>
    new Map(
      (
        st
          .sql(`SELECT t.response_id, count(*) AS n FROM ${table} t JOIN responses r ON r.id = t.response_id WHERE ${where} ${extra} GROUP BY t.response_id`)
          .all(...args) as Row[]
      ).map((c) => [Number(c.response_id), Number(c.n)]),
    );
  const earlier = countBy('earlier_changes', '');
  const openRegrades = countBy('regrade_requests', 'AND t.reply IS NULL');
  return rows.map((r): ResponseSummary => {
    const id = Number(r.id);
    return {
      id,
      examId: String(r.exam_id),
      studentId: String(r.student_id),
      questionId: String(r.question_id),
      extraction:
        r.xid === null
          ? null
          : {
              id: Number(r.xid),
              status: r.xstatus as ExtractionStatus,
              source: r.xsource as ExtractionSource,
              flags: parse(r.xflags),
              equations: parse<{ source: string }[]>(r.xequations).map((e) => e.source),
            },
      marks:
        r.mstatus === null
          ? null
          : {
              total: Number(r.total),
              available: Number(r.available),
              status: r.mstatus as ResponseMarks['status'],
              inconsistent: parse(r.inconsistent),
              ...dimensionsOf(r),
            },
      effective: effective.get(id) ?? {},
      overrides: overrides.get(id)?.length ?? 0,
      overriddenItems: overrides.get(id) ?? [],
      followThrough: followThrough.get(id) ?? [],
      earlier: earlier.get(id) ?? 0,
      openRegrades: openRegrades.get(id) ?? 0,
    };
  });
}

export function getResponseDetail(st: Statements, responseId: number): ResponseDetail | null {
  const r = st.sql('SELECT * FROM responses WHERE id = ?').get(responseId) as Row | undefined;
  if (!r) return null;
  const s = summary(st, r);
  const overridesList = overridesOf(st, responseId);
  const items = (getMarks(st, responseId)?.items ?? []).map((it) => {
    const o = overridesList.find((x) => x.itemId === it.itemId);
    return o ? { ...it, override: o } : it;
  });
  const comments = commentsOf(st, responseId);
  return { ...s, text: r.text === null ? null : String(r.text), extractionDetail: getExtraction(st, responseId), items, overridesList, comments };
}

/** How many responses of the exam there are, how many are read, and how many are marked. */
export function progressCounts(st: Statements, examId: string): { total: number; read: number; marked: number } {
  const r = st
    .sql(
      'SELECT count(*) AS total, count(x.id) AS read, count(m.response_id) AS marked FROM responses r LEFT JOIN extractions x ON x.response_id = r.id LEFT JOIN mark_results m ON m.response_id = r.id WHERE r.exam_id = ?',
    )
    .get(examId) as Row;
  return { total: Number(r.total), read: Number(r.read), marked: Number(r.marked) };
}

/** Counts over the exam for a run's summary, in two queries (nothing per response is read). */
export function examCounts(
  st: Statements,
  examId: string,
): { responses: number; byExtraction: Record<string, number>; inconsistent: number; awarded: number; available: number } {
  const byExtraction: Record<string, number> = {};
  let responses = 0;
  for (const r of st
    .sql(
      "SELECT coalesce(x.status, 'pending') AS k, count(*) AS n FROM responses r LEFT JOIN extractions x ON x.response_id = r.id WHERE r.exam_id = ? GROUP BY k",
    )
    .all(examId) as Row[]) {
    byExtraction[String(r.k)] = Number(r.n);
    responses += Number(r.n);
  }
  const m = st
    .sql(
      "SELECT coalesce(sum(CASE WHEN m.inconsistent != '[]' THEN 1 ELSE 0 END), 0) AS inc, coalesce(sum(m.total), 0) AS awarded, coalesce(sum(m.available), 0) AS available FROM mark_results m JOIN responses r ON r.id = m.response_id WHERE r.exam_id = ?",
    )
    .get(examId) as Row;
  return { responses, byExtraction, inconsistent: Number(m.inc), awarded: Number(m.awarded), available: Number(m.available) };
}

/** How many responses of the exam (optionally of one question): the size of the unpaged list. */
export function countResponses(st: Statements, examId: string, questionId?: string): number {
  return Number(
    (
      st
        .sql('SELECT count(*) AS n FROM responses r WHERE r.exam_id = ? AND (? IS NULL OR r.question_id = ?)')
        .get(examId, questionId ?? null, questionId ?? null) as Row
    ).n,
  );
}

/** The text of each of these responses (null for a given list), by id. */
export function textsOf(st: Statements, ids: readonly number[]): Map<number, string | null> {
  const rows = st.sql('SELECT id, text FROM responses WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as Row[];
  return new Map(rows.map((r) => [Number(r.id), r.text === null ? null : String(r.text)]));
}
