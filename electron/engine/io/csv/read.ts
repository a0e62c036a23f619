// Strict CSV reading (RFC 4180 through csv-parse): UTF-8 with or without BOM, CRLF or LF, quoted
// multi-line fields. A malformed file throws CsvFileError naming the line and the reason.
import { parse } from 'csv-parse/sync';

export class CsvFileError extends Error {
  constructor(
    readonly reason: string,
    readonly line?: number,
    readonly file?: string,
  ) {
    super(`${file ? `${file}` : 'CSV'}${line ? `, line ${line}` : ''}: ${reason}`);
    this.name = 'CsvFileError';
  }
}

/** A data row with the 1-based line where its record starts in the file. */
export type CsvRow = { line: number; values: Record<string, string> };

export type CsvTable = { header: string[]; rows: CsvRow[] };

/**
 * Parse CSV text with a header row. `required` columns must be present (others are kept but can
 * be ignored by the caller). Every record must have as many fields as the header.
 */
export function readCsv(input: string | Buffer, required: readonly string[], file?: string): CsvTable {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw new CsvFileError('not valid UTF-8 text', undefined, file);
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // One line-ending convention inside and between fields (csv-parse counts CRLF inside a quoted
  // field as two lines, which would put line numbers off).
  text = text.replace(/\r\n/g, '\n');
  if (text.trim() === '') throw new CsvFileError(`empty file: expected a header row (${required.join(',')})`, 1, file);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { info: true, relax_column_count: false, skip_empty_lines: true }) as never;
  } catch (e) {
    const err = e as Error & { lines?: number; code?: string };
    const reason = err.message.replace(/^Invalid (Record|Opening|Closing)[^:]*:\s*/i, '').replace(/\s+/g, ' ');
    const line = err.code === 'CSV_QUOTE_NOT_CLOSED' ? (unclosedQuoteLine(text) ?? err.lines) : err.lines;
    throw new CsvFileError(describeCsvError(err.code, err.message) ?? reason, line, file);
  }
  if (records.length === 0) throw new CsvFileError('no header row', 1, file);
  const header = records[0].record.map((h) => h.trim());
  const missing = required.filter((c) => !header.includes(c));
  if (missing.length) throw new CsvFileError(`missing column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')}; header is '${header.join(',')}', expected ${required.join(',')}`, 1, file);
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (dup) throw new CsvFileError(`column '${dup}' appears twice in the header`, 1, file);
  // csv-parse reports info.lines as the line where the record ends; compute where each starts.
  const rows: CsvRow[] = [];
  let prevEnd = records[0].info.lines;
  for (let i = 1; i < records.length; i++) {
    const { record, info } = records[i];
    const values: Record<string, string> = {};
    header.forEach((h, j) => (values[h] = record[j]));
    const newlines = record.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);
    rows.push({ line: Math.max(prevEnd + 1, info.lines - newlines), values });
    prevEnd = info.lines;
  }
  return { header, rows };
}

/** The line where the quoted field that is never closed opens. */
function unclosedQuoteLine(text: string): number | undefined {
  let line = 1;
  let inQuote = false;
  let openedAt = 0;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuote) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else inQuote = false;
      } else if (c === '\n') line++;
      continue;
    }
    if (c === '"' && fieldStart) {
      inQuote = true;
      openedAt = line;
    }
    fieldStart = c === ',' || c === '\n';
    if (c === '\n') line++;
  }
  return inQuote ? openedAt : undefined;
}

function describeCsvError(code: string | undefined, message: string): string | undefined {
  switch (code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_DONT_MATCH_COLUMNS_LENGTH': {
      const m = /expect(?:ed)? (\d+), got (\d+)/i.exec(message);
      return m ? `wrong number of fields: expected ${m[1]}, got ${m[2]}` : 'wrong number of fields';
    }
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (missing closing ")';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'unexpected character after a closing quote (a " inside a quoted field must be doubled: "")';
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'unexpected character after a closing quote';
    case 'INVALID_OPENING_QUOTE':
      return 'a quote inside an unquoted field (quote the whole field and double the inner ")';
    default:
      return undefined;
  }
}
