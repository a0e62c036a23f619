// Marks (the automatic marks of a response, item by item, with evidence), the instructor's
// overrides and comments.
import type { Question } from '../../../shared/exam.ts';
import type { DimensionIssue, ItemMark, ResponseMarks } from '../../../shared/marks.ts';
import type { Comment, Override } from './workspace.ts';
import { audit, responseKey } from './audit.ts';
import { json, now, parse, type Row, type Statements } from './statements.ts';

export class StaleError extends Error {
  override name = 'StaleError';
}

export type StoredMarks = ResponseMarks & { extractionId: number; markedAt: string };

/**
 * Save the automatic marks of a response, computed from extraction `extractionId`. Throws
 * StaleError if the response's extraction has changed since (the marks would be of old data).
 */
export function saveMarks(st: Statements, responseId: number, extractionId: number, marks: ResponseMarks): void {
  st.transaction(() => {
    const cur = st.sql('SELECT id FROM extractions WHERE response_id = ?').get(responseId) as Row | undefined;
    if (!cur || Number(cur.id) !== extractionId) throw new StaleError(`response ${responseId}: extraction changed while marking; mark again`);
    const old = getMarks(st, responseId);
    st.sql('DELETE FROM mark_results WHERE response_id = ?').run(responseId);
    st.sql(
      'INSERT INTO mark_results (response_id, extraction_id, total, available, status, inconsistent, marked_at, dimensions) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(responseId, extractionId, marks.total, marks.available, marks.status, json(marks.inconsistent), now(), dimensionsJson(marks));
    const ins = st.sql(
      'INSERT INTO marks (response_id, item_id, position, available, awarded, outcome, match, evidence, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    marks.items.forEach((it, i) => ins.run(responseId, it.itemId, i, it.available, it.awarded, it.outcome, it.match, json(it.evidence), it.note ?? null));
    audit(st, 'marks.save', 'marks', responseKey(st, responseId), old ? markSummary(old) : undefined, markSummary(marks));
  });
}

/**
 * Save the marks of many responses in one transaction (each as saveMarks, audited). A response
 * whose extraction changed since (`extractionId` no longer current) is skipped: its id is
 * returned among the stale ones, to be marked again.
 */
export function saveMarksBatch(
  st: Statements,
  batch: readonly { responseId: number; extractionId: number; marks: ResponseMarks; /** exam/student/question, when the caller knows it */ key?: string }[],
): number[] {
  if (batch.length === 0) return [];
  return st.transaction(() => {
    const ids = json(batch.map((b) => b.responseId));
    const current = new Map(
      (st.sql('SELECT response_id, id FROM extractions WHERE response_id IN (SELECT value FROM json_each(?))').all(ids) as Row[]).map((r) => [
        Number(r.response_id),
        Number(r.id),
      ]),
    );
    // The stored rows without their evidence (most of their size): an item's row is compared
    // with its new values by SQLite itself (the UPDATE below), not read into JS.
    const stored = storedRows(st, ids, { evidence: false });
    const stale: number[] = [];
    const insResult = st.sql(
      'INSERT INTO mark_results (response_id, extraction_id, total, available, status, inconsistent, marked_at, dimensions) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const ins = st.sql(
      'INSERT INTO marks (response_id, item_id, position, available, awarded, outcome, match, evidence, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const updResult = st.sql(
      'UPDATE mark_results SET extraction_id = ?, total = ?, available = ?, status = ?, inconsistent = ?, marked_at = ?, dimensions = ? WHERE response_id = ?',
    );
    // Only an item row whose values differ is written (and names its response in the change log).
    const upd = st.sql(
      'UPDATE marks SET available = @available, awarded = @awarded, outcome = @outcome, match = @match, evidence = @evidence, note = @note WHERE response_id = @responseId AND item_id = @itemId ' +
        'AND NOT (available IS @available AND awarded IS @awarded AND outcome IS @outcome AND match IS @match AND evidence IS @evidence AND note IS @note)',
    );
    const del = st.sql('DELETE FROM mark_results WHERE response_id = ?');
    const at = now();
    for (const { responseId, extractionId, marks, key } of batch) {
      if (current.get(responseId) !== extractionId) {
        stale.push(responseId);
        continue;
      }
      const old = stored.get(responseId);
      const rows = marks.items.map((it) => [it.available, it.awarded, it.outcome, it.match, json(it.evidence), it.note ?? null] as const);
      if (old && old.items.length === marks.items.length && old.items.every((r, i) => r.item_id === marks.items[i].itemId)) {
        // The same items in the same order (a re-mark): the result row and the item rows that
        // changed are updated in place; deleting and inserting every row (their evidence is most
        // of the file) cost several times as much.
        updResult.run(extractionId, marks.total, marks.available, marks.status, json(marks.inconsistent), at, dimensionsJson(marks), responseId);
        rows.forEach(([available, awarded, outcome, match, evidence, note], i) =>
          upd.run({ available, awarded, outcome, match, evidence, note, responseId, itemId: marks.items[i].itemId }),
        );
      } else {
        if (old) del.run(responseId);
        insResult.run(responseId, extractionId, marks.total, marks.available, marks.status, json(marks.inconsistent), at, dimensionsJson(marks));
        rows.forEach((row, i) => ins.run(responseId, marks.items[i].itemId, i, row[0], row[1], row[2], row[3], row[4], row[5]));
      }
      audit(st, 'marks.save', 'marks', key ?? responseKey(st, responseId), old ? storedSummary(old) : undefined, markSummary(marks));
    }
    return stale;
  });
}

type StoredRows = { result: Row; items: Row[] };

/**
 * The stored rows of these responses' marks (ids as a JSON array), as stored: two queries;
 * `evidence: false` leaves the evidence out, a list of item ids reads only those items' evidence.
 */
function storedRows(st: Statements, ids: string, opts: { evidence?: boolean | readonly string[] } = {}): Map<number, StoredRows> {
  const out = new Map<number, StoredRows>();
  for (const r of st
    .sql(
      'SELECT response_id, extraction_id, total, available, status, inconsistent, dimensions, marked_at FROM mark_results WHERE response_id IN (SELECT value FROM json_each(?))',
    )
    .all(ids) as Row[])
    out.set(Number(r.response_id), { result: r, items: [] });
  for (const r of st
    .sql(
      `SELECT response_id, item_id, position, available, awarded, outcome, match, ${
        opts.evidence === false
          ? 'NULL AS evidence'
          : Array.isArray(opts.evidence)
            ? 'iif(item_id IN (SELECT value FROM json_each(?)), evidence, NULL) AS evidence'
            : 'evidence'
      }, note FROM marks WHERE response_id IN (SELECT value FROM json_each(?)) ORDER BY response_id, position`,
    )
    .all(...(Array.isArray(opts.evidence) ? [json(opts.evidence), ids] : [ids])) as Row[])
    out.get(Number(r.response_id))?.items.push(r);
  return out;
}

/** markSummary of stored rows (the audit's old value), without parsing the evidence. */
function storedSummary(s: StoredRows): unknown {
  return {
    total: Number(s.result.total),
    status: s.result.status,
    items: Object.fromEntries(s.items.map((r) => [String(r.item_id), r.awarded === null ? null : Number(r.awarded)])),
    inconsistent: parse<ResponseMarks['inconsistent']>(s.result.inconsistent).map((i) => i.student),
  };
}

/**
 * The responses of `batch` whose stored marks are exactly `marks` for reading `extractionId`:
 * every column as saveMarks would write it (evidence and notes included, the time aside). Two
 * queries whatever the batch's size; nothing is written.
 */
export function sameMarks(st: Statements, batch: readonly { responseId: number; extractionId: number; marks: ResponseMarks }[]): number[] {
  if (batch.length === 0) return [];
  const stored = storedRows(st, json(batch.map((b) => b.responseId)));
  const same = ({ responseId, extractionId, marks }: (typeof batch)[number]): boolean => {
    const s = stored.get(responseId);
    if (!s) return false;
    const m = s.result;
    return (
      Number(m.extraction_id) === extractionId &&
      Number(m.total) === marks.total &&
      Number(m.available) === marks.available &&
      m.status === marks.status &&
      m.inconsistent === json(marks.inconsistent) &&
      (m.dimensions ?? null) === dimensionsJson(marks) &&
      s.items.length === marks.items.length &&
      marks.items.every((it, i) => {
        const r = s.items[i];
        return r.item_id === it.itemId && Number(r.position) === i && itemRowIs(r, it);
      })
    );
  };
  return batch.filter(same).map((b) => b.responseId);
}

/** A response's stored marks as a scheme change that edits some items only compares them (storedItemMarks). */
export type StoredItemMarks = {
  extractionId: number;
  markedAt: string;
  total: number;
  available: number;
  status: string;
  /** As stored (JSON), to compare with a new marking's. */
  inconsistent: string;
  dimensions: string | null;
  /** Every item in position order; `evidence` (JSON, as stored) only for the items asked for, else null. */
  items: {
    itemId: string;
    available: number;
    awarded: number | null;
    outcome: ItemMark['outcome'];
    match: ItemMark['match'];
    evidence: string | null;
    note: string | null;
  }[];
};

/** New marks for some items of a response, its other items' marks standing (saveItemMarks). */
export type ItemMarksWrite = {
  responseId: number;
  extractionId: number;
  /** Each changed item's mark, at its position among the response's items, and its row (itemRow(mark), when the caller made it already). */
  items: readonly { position: number; mark: ItemMark; row?: ItemRow }[];
  total: number;
  available: number;
  status: ResponseMarks['status'];
  /** The stored marks the change was compared with (storedItemMarks): written only while they are still those stored. */
  stored: StoredItemMarks;
  /** exam/student/question, when the caller knows it */
  key?: string;
};

/**
 * These responses' stored marks with the evidence of items `itemIds` only (most of the rows' size
 * is the others'): two queries. A question's 22,500 responses have 135,000 item rows, and making
 * an object of each was most of the read's time; but their columns besides the evidence (id,
 * marks, outcome, match, note) repeat from response to response. So each response's rows come as
 * one JSON array, built by SQLite in position order, and a response whose array was seen before
 * shares its parsed items (read-only, as every caller treats them); the evidence asked for is
 * read by a second query and put in a copy of those items only.
 */
export function storedItemMarks(st: Statements, responseIds: readonly number[], itemIds: readonly string[]): Map<number, StoredItemMarks> {
  const ids = json(responseIds);
  const out = new Map<number, StoredItemMarks>();
  // REAL columns are written by SQLite's JSON with 17 significant digits: they parse back to the same numbers.
  const shapes = new Map<string, StoredItemMarks['items']>();
  for (const [rid, extractionId, total, available, status, inconsistent, dimensions, markedAt, rows] of st
    .rawSql(
      'SELECT m.response_id, m.extraction_id, m.total, m.available, m.status, m.inconsistent, m.dimensions, m.marked_at, ' +
        '(SELECT json_group_array(json_array(k.item_id, k.available, k.awarded, k.outcome, k.match, k.note) ORDER BY k.position) FROM marks k WHERE k.response_id = m.response_id) ' +
        'FROM mark_results m WHERE m.response_id IN (SELECT value FROM json_each(?))',
    )
    .all(ids) as unknown[][]) {
    const key = String(rows);
    let items = shapes.get(key);
    if (!items) shapes.set(key, (items = itemsOfJson(key)));
    out.set(Number(rid), {
      extractionId: Number(extractionId),
      markedAt: String(markedAt),
      total: Number(total),
      available: Number(available),
      status: String(status),
      inconsistent: String(inconsistent),
      dimensions: dimensions === null || dimensions === undefined ? null : String(dimensions),
      items,
    });
  }
  if (itemIds.length === 0) return out;
  const copied = new Set<number>();
  for (const [rid, itemId, evidence] of st
    .rawSql(
      'SELECT response_id, item_id, evidence FROM marks WHERE response_id IN (SELECT value FROM json_each(?)) AND item_id IN (SELECT value FROM json_each(?))',
    )
    .all(ids, json(itemIds)) as unknown[][]) {
    const s = out.get(Number(rid));
    if (!s) continue;
    const i = s.items.findIndex((it) => it.itemId === itemId);
    if (i < 0) continue;
    // The shared items are copied once per response before its evidence goes in.
    if (!copied.has(Number(rid))) {
      s.items = [...s.items];
      copied.add(Number(rid));
    }
    s.items[i] = { ...s.items[i], evidence: String(evidence) };
  }
  return out;
}

/** A response's item rows as storedItemMarks' query gives them (JSON), without their evidence. */
function itemsOfJson(text: string): StoredItemMarks['items'] {
  return (JSON.parse(text) as [string, number, number | null, ItemMark['outcome'], ItemMark['match'], string | null][]).map(
    ([itemId, available, awarded, outcome, match, note]) => ({ itemId, available, awarded, outcome, match, evidence: null, note }),
  );
}

/** Whether a stored item row (as read back: numbers perhaps as stored, evidence as JSON) is what itemRow(mark) writes. */
export function itemRowIs(r: Readonly<Record<string, unknown>>, mark: ItemMark): boolean {
  return storedRowIs(r, itemRow(mark));
}

/** itemRowIs with the row to write already made (itemRow). */
export function storedRowIs(r: Readonly<Record<string, unknown>>, w: ItemRow): boolean {
  return (
    Number(r.available) === w.available &&
    (r.awarded === null ? null : Number(r.awarded)) === w.awarded &&
    r.outcome === w.outcome &&
    r.match === w.match &&
    r.evidence === w.evidence &&
    (r.note ?? null) === w.note
  );
}

/** An item's row as saveMarks writes it, but the response and position. */
export type ItemRow = { available: number; awarded: number | null; outcome: string; match: string; evidence: string; note: string | null };

/** An item's row as saveMarks writes it, but the response and position: to compare with a stored one. */
export const itemRow = (it: ItemMark): ItemRow => ({
  available: it.available,
  awarded: it.awarded,
  outcome: it.outcome,
  match: it.match,
  evidence: json(it.evidence),
  note: it.note ?? null,
});

/**
 * Write new marks for some items of responses whose other items' marks stand (a scheme change that
 * edited those items only; grade.ts): each response's item rows for those items, in place, and its
 * result row's total, available, status and time, in one transaction, audited as saveMarksBatch
 * audits a response's marks. A response whose stored marks are no longer those it was compared
 * with (`stored`: another reading, or marked again since) is skipped and returned among the stale
 * ones (to be marked whole). The rows compared are not read again: one query checks they stand.
 */
export function saveItemMarks(st: Statements, batch: readonly ItemMarksWrite[]): number[] {
  if (batch.length === 0) return [];
  return st.transaction(() => {
    const current = new Map(
      (
        st
          .sql('SELECT response_id, extraction_id, marked_at FROM mark_results WHERE response_id IN (SELECT value FROM json_each(?))')
          .all(json(batch.map((b) => b.responseId))) as Row[]
      ).map((r) => [Number(r.response_id), `${Number(r.extraction_id)}\u0000${String(r.marked_at)}`]),
    );
    const updResult = st.sql('UPDATE mark_results SET total = ?, available = ?, status = ?, marked_at = ? WHERE response_id = ?');
    const stale: number[] = [];
    const at = now();
    for (const b of batch) {
      const old = b.stored;
      if (
        old.extractionId !== b.extractionId ||
        current.get(b.responseId) !== `${old.extractionId}\u0000${old.markedAt}` ||
        b.items.some(({ position, mark }) => old.items[position]?.itemId !== mark.itemId)
      ) {
        stale.push(b.responseId);
        continue;
      }
      updResult.run(b.total, b.available, b.status, at, b.responseId);
      for (const { position, mark, row } of b.items) updateItemRow(st, b.responseId, old.items[position], mark, row ?? itemRow(mark));
      // As saveMarksBatch's audit: the total, status, each item's mark and the inconsistent equations, before and after.
      const awarded = new Map(b.items.map(({ mark }) => [mark.itemId, mark.awarded]));
      const inconsistent = parse<ResponseMarks['inconsistent']>(old.inconsistent).map((i) => i.student);
      const items = (changed: boolean) =>
        Object.fromEntries(old.items.map((r) => [r.itemId, changed && awarded.has(r.itemId) ? awarded.get(r.itemId)! : r.awarded]));
      audit(
        st,
        'marks.save',
        'marks',
        b.key ?? responseKey(st, b.responseId),
        { total: old.total, status: old.status, items: items(false), inconsistent },
        { total: b.total, status: b.status, items: items(true), inconsistent },
      );
    }
    return stale;
  });
}

/** The columns of an item's row that a new mark may change. */
const ITEM_COLUMNS = ['available', 'awarded', 'outcome', 'match', 'evidence', 'note'] as const;

/**
 * Write `mark` over an item row still as `was` (saveItemMarks has checked it is): only the
 * columns that differ (an accepted form added changes the evidence alone; setting the others to
 * themselves rewrote their index, marks_outcome, for each row: a third of a re-grade's writes),
 * nothing when none does, so the row ends as the full update would leave it. Where the stored
 * evidence was not read (null), every column is written unless all are as they were.
 */
function updateItemRow(st: Statements, responseId: number, was: StoredItemMarks['items'][number], mark: ItemMark, w: ItemRow): void {
  if (was.evidence === null) {
    st.sql(UPDATE_ALL_COLUMNS).run(w.available, w.awarded, w.outcome, w.match, w.evidence, w.note, responseId, mark.itemId, ...ITEM_COLUMNS.map((c) => w[c]));
    return;
  }
  const differ = (c: (typeof ITEM_COLUMNS)[number]): boolean =>
    c === 'available'
      ? Number(was.available) !== w.available
      : c === 'awarded'
        ? (was.awarded === null ? null : Number(was.awarded)) !== w.awarded
        : (was[c] ?? null) !== w[c];
  const set = ITEM_COLUMNS.filter(differ);
  if (set.length === 0) return;
  // One statement per set of columns (one, the evidence, in a re-grade), prepared once.
  st.sql(`UPDATE marks SET ${set.map((c) => `${c} = ?`).join(', ')} WHERE response_id = ? AND item_id = ?`).run(
    ...set.map((c) => w[c]),
    responseId,
    mark.itemId,
  );
}

/** Every column of an item's row, unless all are as they were. */
const UPDATE_ALL_COLUMNS =
  `UPDATE marks SET ${ITEM_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE response_id = ? AND item_id = ?` +
  ` AND NOT (${ITEM_COLUMNS.map((c) => `${c} IS ?`).join(' AND ')})`;

/** The dimension issues as stored: NULL when there are none. */
const dimensionsJson = (m: ResponseMarks): string | null => (m.dimensions?.length ? json(m.dimensions) : null);

/** A stored row's dimension issues, as the optional field of ResponseMarks. */
export function dimensionsOf(row: Row): { dimensions?: DimensionIssue[] } {
  return row.dimensions === null || row.dimensions === undefined ? {} : { dimensions: parse<DimensionIssue[]>(row.dimensions) };
}

export function getMarks(st: Statements, responseId: number): StoredMarks | null {
  const m = st.sql('SELECT * FROM mark_results WHERE response_id = ?').get(responseId) as Row | undefined;
  if (!m) return null;
  const items = (st.sql('SELECT * FROM marks WHERE response_id = ? ORDER BY position').all(responseId) as Row[]).map((r): ItemMark => ({
    itemId: String(r.item_id),
    available: Number(r.available),
    awarded: r.awarded === null ? null : Number(r.awarded),
    outcome: r.outcome as ItemMark['outcome'],
    match: r.match as ItemMark['match'],
    evidence: parse(r.evidence),
    ...(r.note === null ? {} : { note: String(r.note) }),
  }));
  return {
    items,
    total: Number(m.total),
    available: Number(m.available),
    status: m.status as ResponseMarks['status'],
    inconsistent: parse(m.inconsistent),
    ...dimensionsOf(m),
    extractionId: Number(m.extraction_id),
    markedAt: String(m.marked_at),
  };
}

/** How many responses of the exam are marked (marks current for their extraction). */
export function markedCount(st: Statements, examId: string): number {
  return Number((st.sql('SELECT count(*) AS n FROM mark_results m JOIN responses r ON r.id = m.response_id WHERE r.exam_id = ?').get(examId) as Row).n);
}

/** How many scheme items over the exam's responses the engine could not decide. */
export function undecidedItemCount(st: Statements, examId: string): number {
  return Number(
    (st.sql("SELECT count(*) AS n FROM marks m JOIN responses r ON r.id = m.response_id WHERE r.exam_id = ? AND m.outcome = 'undecided'").get(examId) as Row).n,
  );
}

// ---- overrides and comments ------------------------------------------------------------------

/**
 * What an override's comment is stored as when the instructor marks a manual item without a
 * reason (the table requires a comment; a manual item is the instructor's to mark, so none is asked).
 */
export const NO_REASON_GIVEN = 'marked by hand';

/**
 * The rule for reasons: a manual item is the instructor's to mark, so a reason is optional; a mark
 * that replaces the engine's (an automatic item) needs one. Returns the comment to store.
 */
function reasonFor(item: Question['scheme'][number], comment: string | undefined, doing: 'set' | 'clear'): string {
  const c = comment?.trim() ?? '';
  if (c) return c;
  if (item.manual) return NO_REASON_GIVEN;
  throw new Error(
    doing === 'set'
      ? `a comment is required to override the automatic mark of item '${item.id}': an override needs a comment saying why`
      : `removing an override of the automatic item '${item.id}' needs a comment saying why`,
  );
}

/**
 * The instructor's mark for one item (manual items included). A comment saying why is required
 * to override an automatic item, optional for a manual one.
 */
export function setOverride(st: Statements, responseId: number, itemId: string, awarded: number, comment?: string): void {
  if (!Number.isFinite(awarded) || awarded < 0) throw new Error(`override mark must be a number >= 0, got ${awarded}`);
  st.transaction(() => {
    const item = schemeItem(st, responseId, itemId);
    const why = reasonFor(item, comment, 'set');
    if (awarded > item.marks) throw new Error(`item '${itemId}' is worth ${item.marks}; can't award ${awarded}`);
    const old = st.sql('SELECT awarded, comment FROM overrides WHERE response_id = ? AND item_id = ?').get(responseId, itemId) as Row | undefined;
    st.sql(
      'INSERT INTO overrides (response_id, item_id, awarded, comment, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (response_id, item_id) DO UPDATE SET awarded = excluded.awarded, comment = excluded.comment, created_at = excluded.created_at',
    ).run(responseId, itemId, awarded, why, now());
    audit(st, 'override.set', 'override', `${responseKey(st, responseId)}/${itemId}`, old ? { awarded: old.awarded, comment: old.comment } : undefined, {
      awarded,
      comment: why,
    });
  });
}

/** Remove an override (back to the automatic mark, or open for a manual item); the reason is recorded in the audit log. */
export function clearOverride(st: Statements, responseId: number, itemId: string, comment?: string): void {
  st.transaction(() => {
    const why = reasonFor(schemeItem(st, responseId, itemId), comment, 'clear');
    const old = st.sql('SELECT awarded, comment FROM overrides WHERE response_id = ? AND item_id = ?').get(responseId, itemId) as Row | undefined;
    if (!old) return;
    st.sql('DELETE FROM overrides WHERE response_id = ? AND item_id = ?').run(responseId, itemId);
    audit(st, 'override.clear', 'override', `${responseKey(st, responseId)}/${itemId}`, { awarded: old.awarded, comment: old.comment }, { comment: why });
  });
}

export function addComment(st: Statements, responseId: number, body: string): number {
  if (!body || body.trim() === '') throw new Error('a comment needs text');
  return st.transaction(() => {
    const id = Number(st.sql('INSERT INTO comments (response_id, body, created_at) VALUES (?, ?, ?)').run(responseId, body.trim(), now()).lastInsertRowid);
    audit(st, 'comment.add', 'comment', responseKey(st, responseId), undefined, { id, body: body.trim() });
    return id;
  });
}

/** The overrides of a response, by item id. */
export function overridesOf(st: Statements, responseId: number): Override[] {
  return (st.sql('SELECT item_id, awarded, comment, created_at FROM overrides WHERE response_id = ? ORDER BY item_id').all(responseId) as Row[]).map((r) => ({
    itemId: String(r.item_id),
    awarded: Number(r.awarded),
    comment: String(r.comment),
    createdAt: String(r.created_at),
  }));
}

/** The comments on a response, oldest first. */
export function commentsOf(st: Statements, responseId: number): Comment[] {
  return (st.sql('SELECT id, body, created_at FROM comments WHERE response_id = ? ORDER BY id').all(responseId) as Row[]).map((c) => ({
    id: Number(c.id),
    body: String(c.body),
    createdAt: String(c.created_at),
  }));
}

function schemeItem(st: Statements, responseId: number, itemId: string): Question['scheme'][number] {
  const r = st.sql('SELECT q.json FROM responses r JOIN questions q ON q.exam_id = r.exam_id AND q.id = r.question_id WHERE r.id = ?').get(responseId) as
    Row | undefined;
  if (!r) throw new Error(`no response with id ${responseId}`);
  const q = parse<Question>(r.json);
  const item = q.scheme.find((s) => s.id === itemId);
  if (!item) throw new Error(`question '${q.id}' has no scheme item '${itemId}' (items: ${q.scheme.map((s) => s.id).join(', ')})`);
  return item;
}

/** What the audit log keeps of a response's marks. */
function markSummary(m: ResponseMarks): unknown {
  return {
    total: m.total,
    status: m.status,
    items: Object.fromEntries(m.items.map((i) => [i.itemId, i.awarded])),
    inconsistent: m.inconsistent.map((i) => i.student),
  };
}
