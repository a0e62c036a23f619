// Versioned schema migrations, tracked with SQLite's user_version. Each migration runs in a
// transaction with the user_version bump, so a workspace is always at exactly one version.
import type Database from 'better-sqlite3';

export type Migration = { version: number; description: string; up: string };

/** The statements of a trigger that gives response `id` the next sequence number. */
const named = (id: string): string =>
  `UPDATE review_changes SET seq = (SELECT max(seq) + 1 FROM review_changes) WHERE response_id = ${id}; ` +
  `INSERT INTO review_changes (response_id, seq) SELECT ${id}, (SELECT coalesce(max(seq), 0) + 1 FROM review_changes) ` +
  `WHERE NOT EXISTS (SELECT 1 FROM review_changes WHERE response_id = ${id});`;

/**
 * The triggers that keep `review_changes` (migration 7): after any insert, update or delete of a
 * row that a response's line in the review list rests on, that response gets the next sequence
 * number. An update then an insert where there was none, never `INSERT OR REPLACE`: a statement's
 * own conflict clause (an upsert's) would override the trigger's and fail on the second change.
 */
function changeTriggers(): string {
  const tables: [table: string, key: string][] = [
    ['responses', 'id'],
    ['extractions', 'response_id'],
    ['mark_results', 'response_id'],
    ['overrides', 'response_id'],
    ['earlier_changes', 'response_id'],
    ['regrade_requests', 'response_id'],
  ];
  const events: [event: string, row: string][] = [
    ['INSERT', 'NEW'],
    ['UPDATE', 'NEW'],
    ['DELETE', 'OLD'],
  ];
  return [
    ...tables.flatMap(([table, key]) =>
      events.map(
        ([event, row]) => `CREATE TRIGGER review_changes_${table}_${event.toLowerCase()} AFTER ${event} ON ${table} BEGIN ${named(`${row}.${key}`)} END;`,
      ),
    ),
    // Marks are written and dropped with their mark_results row (whose triggers name the
    // response); one changed in place would not be, so an update names it too (none does now: free).
    `CREATE TRIGGER review_changes_marks_update AFTER UPDATE ON marks BEGIN ${named('NEW.response_id')} END;`,
  ].join('\n');
}

/**
 * Migration 11: the update triggers of marks and mark_results (migration 8 named the response on
 * every update) name it only when a column changed that a reader of the change log reads. Those
 * readers (the app's review index, the exports' stamp and rows) read a response's marks through
 * listResponses: of mark_results every column but `marked_at`; of marks every column, but of the
 * evidence only whether an awarded item was earned by follow-through (listResponses' `ft`, the
 * same LIKE: keep the two together). A scheme change that adds an equivalent form rewrites the
 * evidence of the items it withholds and the time of their marks, and nothing a reader sees: naming
 * those responses (9,351 of 67,500) made the exports list and format them again to find the same rows.
 */
function updateTriggersOnChange(): string {
  const same = (columns: readonly string[]): string => columns.map((c) => `OLD.${c} IS NEW.${c}`).join(' AND ');
  const FT = (row: string): string => `(${row}.evidence LIKE '%"followThrough"%')`;
  const marks = `${same(['response_id', 'item_id', 'position', 'available', 'awarded', 'outcome', 'match', 'note'])} AND (OLD.evidence IS NEW.evidence OR ${FT('OLD')} IS ${FT('NEW')})`;
  const results = same(['response_id', 'extraction_id', 'total', 'available', 'status', 'inconsistent', 'dimensions']);
  return [
    'DROP TRIGGER review_changes_marks_update;',
    `CREATE TRIGGER review_changes_marks_update AFTER UPDATE ON marks WHEN NOT (${marks}) BEGIN ${named('NEW.response_id')} END;`,
    'DROP TRIGGER review_changes_mark_results_update;',
    `CREATE TRIGGER review_changes_mark_results_update AFTER UPDATE ON mark_results WHEN NOT (${results}) BEGIN ${named('NEW.response_id')} END;`,
  ].join('\n');
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'exams, questions, responses, extractions, verdicts, marks, overrides, comments, audit',
    up: `
      CREATE TABLE exams (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        json TEXT NOT NULL,
        imported_at TEXT NOT NULL
      );
      CREATE TABLE questions (
        exam_id TEXT NOT NULL REFERENCES exams(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        position INTEGER NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (exam_id, id)
      );
      CREATE TABLE responses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        exam_id TEXT NOT NULL,
        student_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        text TEXT,                       -- NULL when only an equation list was given
        imported_at TEXT NOT NULL,
        UNIQUE (exam_id, student_id, question_id),
        FOREIGN KEY (exam_id, question_id) REFERENCES questions(exam_id, id)
      );
      CREATE TABLE extractions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        response_id INTEGER NOT NULL UNIQUE REFERENCES responses(id) ON DELETE CASCADE,
        reader TEXT NOT NULL,            -- extractor name ('plain', 'given', ...)
        source TEXT NOT NULL,            -- ExtractionSource
        status TEXT NOT NULL,            -- ExtractionStatus
        flags TEXT NOT NULL,             -- JSON array
        equations TEXT NOT NULL,         -- JSON array of ExtractedEquation
        unread TEXT NOT NULL,            -- JSON array
        notes TEXT NOT NULL,             -- JSON array
        created_at TEXT NOT NULL
      );
      CREATE TABLE verdicts (
        key TEXT PRIMARY KEY,            -- kind, domain, premise, conclusion
        json TEXT NOT NULL
      );
      CREATE TABLE mark_results (
        response_id INTEGER PRIMARY KEY REFERENCES responses(id) ON DELETE CASCADE,
        extraction_id INTEGER NOT NULL REFERENCES extractions(id) ON DELETE CASCADE,
        total REAL NOT NULL,
        available REAL NOT NULL,
        status TEXT NOT NULL,
        inconsistent TEXT NOT NULL,      -- JSON array
        marked_at TEXT NOT NULL
      );
      CREATE TABLE marks (
        response_id INTEGER NOT NULL REFERENCES mark_results(response_id) ON DELETE CASCADE,
        item_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        available REAL NOT NULL,
        awarded REAL,                    -- NULL: manual (open) or undecided
        outcome TEXT NOT NULL,
        match TEXT NOT NULL,
        evidence TEXT NOT NULL,          -- JSON array of MarkEvidence
        note TEXT,
        PRIMARY KEY (response_id, item_id)
      );
      CREATE TABLE overrides (
        response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        item_id TEXT NOT NULL,
        awarded REAL NOT NULL,
        comment TEXT NOT NULL CHECK (length(trim(comment)) > 0),
        created_at TEXT NOT NULL,
        PRIMARY KEY (response_id, item_id)
      );
      CREATE TABLE comments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        body TEXT NOT NULL CHECK (length(trim(body)) > 0),
        created_at TEXT NOT NULL
      );
      CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        action TEXT NOT NULL,            -- 'exam.import', 'response.import', 'extraction.save', ...
        entity TEXT NOT NULL,            -- 'exam', 'response', 'extraction', 'marks', 'override', 'comment'
        entity_key TEXT NOT NULL,        -- exam id, or exam/student/question
        old TEXT,                        -- JSON, NULL when created
        new TEXT                         -- JSON, NULL when removed
      );
      CREATE INDEX audit_entity ON audit(entity, entity_key);
      CREATE INDEX responses_exam ON responses(exam_id, id);
    `,
  },
  {
    version: 2,
    description: 'model_records: per response, what a model read (models with digests, prompts, replies, tokens, wall time)',
    up: `
      CREATE TABLE model_records (
        response_id INTEGER PRIMARY KEY REFERENCES responses(id) ON DELETE CASCADE,
        -- The extraction this reading produced; NULL once that extraction was replaced (a
        -- correction by hand keeps the model's record for reference).
        extraction_id INTEGER REFERENCES extractions(id) ON DELETE SET NULL,
        technique TEXT NOT NULL,         -- 'hybrid', 'llm-modulo', ...
        models TEXT NOT NULL,            -- JSON array of {name, digest}
        waiting INTEGER NOT NULL,        -- 1: Ollama was unreachable, the response waits for the model
        record TEXT NOT NULL,            -- JSON ResponseRecord (electron/engine/pipeline/types.ts)
        created_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 3,
    description: 'gold_lists: reference equation lists the instructor provided, for the accuracy figure',
    up: `
      CREATE TABLE gold_lists (
        exam_id TEXT NOT NULL REFERENCES exams(id) ON DELETE CASCADE,
        student_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        equations TEXT NOT NULL,         -- JSON array of SymPy sources
        PRIMARY KEY (exam_id, student_id, question_id)
      );
    `,
  },
  {
    version: 4,
    description: "extractions.alternatives: the reading's choices (Extraction.alternatives), NULL when it made none",
    up: `
      ALTER TABLE extractions ADD COLUMN alternatives TEXT; -- JSON array of Alternative, or NULL
    `,
  },
  {
    version: 5,
    description:
      "earlier_changes: corrections and overrides made on a text a re-import replaced, kept aside until the instructor confirms or drops them; regrade_requests: students' requests and the replies",
    up: `
      CREATE TABLE earlier_changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('correction', 'override')),
        item_id TEXT,                    -- the overridden item (kind 'override')
        value TEXT NOT NULL,             -- JSON: {equations} or {awarded, comment}
        made_at TEXT NOT NULL,           -- when the instructor made it (on the earlier text)
        earlier_text TEXT,               -- the text it was made on
        created_at TEXT NOT NULL
      );
      CREATE INDEX earlier_changes_response ON earlier_changes(response_id);
      CREATE TABLE regrade_requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        body TEXT NOT NULL CHECK (length(trim(body)) > 0),
        requested_on TEXT NOT NULL,      -- the date the student asked (YYYY-MM-DD)
        created_at TEXT NOT NULL,
        reply TEXT,                      -- NULL while open
        resolved_at TEXT,
        changes TEXT                     -- JSON array of {itemId, from, to}: the marks the resolution changed
      );
      CREATE INDEX regrade_requests_response ON regrade_requests(response_id);
    `,
  },
  {
    version: 6,
    description: 'decided: verdicts kept across runs (pairs and premise consistency, by canonical key), so a re-grade decides nothing twice',
    up: `
      CREATE TABLE decided (
        key TEXT PRIMARY KEY,            -- 'p' or 'c', the engine's settings, the canonical equations, the domain
        verdict TEXT NOT NULL            -- JSON
      ) WITHOUT ROWID;
      CREATE INDEX marks_outcome ON marks(outcome, response_id);
      CREATE INDEX responses_question ON responses(exam_id, question_id, id);
    `,
  },
  {
    version: 7,
    description: 'mark_results.dimensions: equations found dimensionally inconsistent (evidence beside the marks)',
    up: `
      ALTER TABLE mark_results ADD COLUMN dimensions TEXT; -- JSON array of DimensionIssue, or NULL (none, or no units declared)
    `,
  },
  {
    version: 8,
    description:
      "review_changes: which responses changed since the app last read them (kept by triggers), so its review index re-reads only those; indexes for the foreign keys that pointed at extractions unindexed, and for one response's audit log",
    up: `
      -- One row per response that ever changed, with the sequence number of its last change: the
      -- app's review index (electron/app/review-index.ts) asks for the rows past the number it last
      -- saw. Triggers keep it, so no write path can forget to.
      CREATE TABLE review_changes (
        response_id INTEGER PRIMARY KEY,
        seq INTEGER NOT NULL
      );
      CREATE INDEX review_changes_seq ON review_changes(seq);
${changeTriggers()}
      -- Dropping an extraction cascades to its marks and clears the model record's link: without
      -- these, each such delete scanned the whole table.
      CREATE INDEX mark_results_extraction ON mark_results(extraction_id);
      CREATE INDEX model_records_extraction ON model_records(extraction_id);
      -- One response's history (the detail view) by its key, without reading the whole log.
      CREATE INDEX audit_key ON audit(entity_key, id);
    `,
  },
  {
    version: 9,
    description: 'meta: facts about the workspace itself, first its random id (so an export can tell this workspace from another made at the same path)',
    up: `
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      INSERT INTO meta (key, value) VALUES ('workspace_id', lower(hex(randomblob(16))));
    `,
  },
  {
    version: 10,
    description: "canonical_keys: each equation source's canonical key (answer groups), so a restart reads them instead of parsing every list again",
    up: `
      CREATE TABLE canonical_keys (
        space TEXT NOT NULL,             -- the key's version and the question's variables (what parsing depends on)
        source TEXT NOT NULL,            -- an equation as stored in a reading
        key TEXT,                        -- decide/entail/canonical.ts's key; NULL: the grammar rejects the source
        PRIMARY KEY (space, source)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 11,
    description:
      'review_changes: an update of marks or mark_results names its response only when something a review line or an export row reads changed (not the time marked, nor evidence that keeps its follow-through)',
    up: `
${updateTriggersOnChange()}
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Bring the database to SCHEMA_VERSION. Refuses a workspace written by a newer Equimark. */
export function migrate(db: Database.Database, migrations: Migration[] = MIGRATIONS): { from: number; to: number } {
  const from = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (from > latest) throw new Error(`workspace schema version ${from} is newer than this Equimark understands (${latest}); upgrade Equimark`);
  for (const m of migrations) {
    if (m.version <= from) continue;
    db.transaction(() => {
      db.exec(m.up);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return { from, to: Math.max(from, latest) };
}
