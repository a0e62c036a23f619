// What a model read for a response (models, prompts, replies, tokens, time), stored beside the
// extraction that reading produced.
import type { ResponseRecord } from '../read/model/types.ts';
import type { StoredModelRecord } from './workspace.ts';
import { json, now, parse, type Row, type Statements } from './statements.ts';

/** Store (replacing any) the record of the reading that produced extraction `extractionId`. */
export function putModelRecord(st: Statements, responseId: number, extractionId: number, record: ResponseRecord): void {
  st.sql(
    'INSERT INTO model_records (response_id, extraction_id, technique, models, waiting, record, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ' +
      'ON CONFLICT (response_id) DO UPDATE SET extraction_id = excluded.extraction_id, technique = excluded.technique, models = excluded.models, waiting = excluded.waiting, record = excluded.record, created_at = excluded.created_at',
  ).run(responseId, extractionId, record.technique, json(record.models), record.waiting ? 1 : 0, json(record), now());
}

/** What a model read for this response, or null. */
export function getModelRecord(st: Statements, responseId: number): StoredModelRecord | null {
  const r = st
    .sql('SELECT m.*, x.id AS current_x FROM model_records m LEFT JOIN extractions x ON x.response_id = m.response_id WHERE m.response_id = ?')
    .get(responseId) as Row | undefined;
  if (!r) return null;
  const extractionId = r.extraction_id === null ? null : Number(r.extraction_id);
  return {
    responseId,
    extractionId,
    current: extractionId !== null && extractionId === Number(r.current_x),
    technique: String(r.technique),
    models: parse(r.models),
    waiting: Number(r.waiting) === 1,
    record: parse(r.record),
    createdAt: String(r.created_at),
  };
}
