// Extractions: the equation list read from each response (one per response; saving a new one
// drops the response's marks through the foreign key).
import { toNote, type Alternative, type Extraction, type ExtractionSource, type ExtractionStatus } from '../../../shared/extraction.ts';
import type { ResponseRecord } from '../read/model/types.ts';
import { audit, responseKey } from './audit.ts';
import { putModelRecord } from './model-records.ts';
import { json, now, parse, type Row, type Statements } from './statements.ts';

/** Flag of an extraction kept while the response waits for the model (Ollama unreachable). */
export const WAITING_FLAG = 'waiting-for-model';

/** Flag of a response a step failed on (an exception while reading or marking it; the reason is in its notes). */
export const ENGINE_ERROR_FLAG = 'engine-error';

export type StoredExtraction = Extraction & { id: number; reader: string; createdAt: string };

export function getExtraction(st: Statements, responseId: number): StoredExtraction | null {
  const r = st.sql('SELECT * FROM extractions WHERE response_id = ?').get(responseId) as Row | undefined;
  return r ? extractionOf(r) : null;
}

/** The extractions of many responses in one query, by response id (absent: not extracted). */
export function getExtractions(st: Statements, responseIds: readonly number[]): Map<number, StoredExtraction> {
  const rows = st.sql('SELECT * FROM extractions WHERE response_id IN (SELECT value FROM json_each(?))').all(json(responseIds)) as Row[];
  return new Map(rows.map((r) => [Number(r.response_id), extractionOf(r)]));
}

function extractionOf(r: Row): StoredExtraction {
  return {
    id: Number(r.id),
    reader: String(r.reader),
    createdAt: String(r.created_at),
    source: r.source as ExtractionSource,
    status: r.status as ExtractionStatus,
    flags: parse(r.flags),
    equations: parse(r.equations),
    unread: parse(r.unread),
    // Notes are stored as JSON: strings (every row so far) or {kind, text}; both load.
    notes: parse<unknown[]>(r.notes).map(toNote),
    ...(r.alternatives ? { alternatives: parse<Alternative[]>(r.alternatives) } : {}),
  };
}

/**
 * Replace a response's extraction (dropping its marks) and store a model's record of the
 * reading beside it; audited. Runs inside the caller's transaction. Returns the extraction id.
 */
export function writeExtraction(st: Statements, responseId: number, x: Extraction, reader: string, record?: ResponseRecord): number {
  const old = getExtraction(st, responseId);
  st.sql('DELETE FROM extractions WHERE response_id = ?').run(responseId); // cascades to marks
  const id = st
    .sql(
      'INSERT INTO extractions (response_id, reader, source, status, flags, equations, unread, notes, alternatives, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      responseId,
      reader,
      x.source,
      x.status,
      json(x.flags),
      json(x.equations),
      json(x.unread),
      json(x.notes),
      x.alternatives?.length ? json(x.alternatives) : null,
      now(),
    ).lastInsertRowid;
  if (record) putModelRecord(st, responseId, Number(id), record);
  const audited = record ? { ...(stripExtraction(x) as object), reader, models: record.models.map((m) => `${m.name}@${m.digest}`) } : stripExtraction(x);
  audit(st, 'extraction.save', 'extraction', responseKey(st, responseId), old ? stripExtraction(old) : undefined, audited);
  return Number(id);
}

/** Responses of the exam whose extraction waits for the model (flag 'waiting-for-model'), in import order. */
export function waiting(st: Statements, examId: string): { id: number; studentId: string; questionId: string }[] {
  return (
    st
      .sql(
        `SELECT r.id, r.student_id, r.question_id FROM responses r JOIN extractions x ON x.response_id = r.id WHERE r.exam_id = ? AND EXISTS (SELECT 1 FROM json_each(x.flags) f WHERE f.value = '${WAITING_FLAG}') ORDER BY r.id`,
      )
      .all(examId) as Row[]
  ).map((r) => ({ id: Number(r.id), studentId: String(r.student_id), questionId: String(r.question_id) }));
}

/** What the audit log keeps of an extraction. */
function stripExtraction(x: Extraction): unknown {
  const chosen = (x.alternatives ?? []).map((a) => a.chosen ?? null);
  return { source: x.source, status: x.status, flags: x.flags, equations: x.equations.map((e) => e.source), ...(chosen.length ? { chosen } : {}) };
}

/** Whether two extractions hold the same list, status, flags and notes. */
export function sameExtraction(a: Extraction, b: Extraction): boolean {
  return json(stripExtraction(a)) === json(stripExtraction(b)) && json(a.notes) === json(b.notes);
}

/** What the audit log keeps of a pick: which choice, the reading before and after (1-based), the span's equations before and after. */
export type ReadingPick = { choice: number; text: string; from: number; to: number; before: string[]; after: string[] };

/**
 * The instructor picked a reading of a choice: the new extraction saved (audited as a save) and the
 * pick audited as its own action ('reading.pick', by the instructor), in the caller's transaction.
 */
export function writeReadingPick(st: Statements, responseId: number, x: Extraction, reader: string, pick: ReadingPick): number {
  const id = writeExtraction(st, responseId, x, reader);
  const key = responseKey(st, responseId);
  audit(
    st,
    'reading.pick',
    'extraction',
    key,
    { by: 'instructor', choice: pick.choice + 1, text: pick.text, reading: pick.from + 1, equations: pick.before },
    { by: 'instructor', choice: pick.choice + 1, text: pick.text, reading: pick.to + 1, equations: pick.after },
  );
  return id;
}

/**
 * Drop the readings of the exam's responses made by another reader than `reader`, so the next
 * grading reads them again with it (their marks go with them). Readings the instructor corrected
 * (source 'manual') and imported lists ('given') are kept. Audited per response, in one transaction.
 */
export function dropReadingsNotBy(st: Statements, examId: string, reader: string): { dropped: number; corrected: number; given: number } {
  return st.transaction(() => {
    const rows = st
      .sql('SELECT x.response_id, x.reader, x.source FROM extractions x JOIN responses r ON r.id = x.response_id WHERE r.exam_id = ? AND r.text IS NOT NULL')
      .all(examId) as Row[];
    const out = { dropped: 0, corrected: 0, given: 0 };
    for (const r of rows) {
      if (r.source === 'manual') out.corrected++;
      else if (r.source === 'given') out.given++;
      else if (r.reader !== reader) {
        const id = Number(r.response_id);
        const old = getExtraction(st, id)!;
        st.sql('DELETE FROM extractions WHERE response_id = ?').run(id);
        audit(st, 'extraction.reread', 'extraction', responseKey(st, id), stripExtraction(old), { reader });
        out.dropped++;
      }
    }
    return out;
  });
}
