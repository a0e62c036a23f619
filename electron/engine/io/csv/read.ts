// Strict CSV reading (RFC 4180 through csv-parse): UTF-8 with or without BOM, quoted multi-line
// fields, any line-ending convention (LF, CRLF, or old Mac CR-only: each read as a line break,
// inside quoted fields too, so the same content reads the same whichever the file uses). A
// malformed file throws CsvFileError naming the line (a record's first line; an unclosed quote
// where it opens) and the reason: invalid UTF-8 and NUL bytes included.
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
 * An id cell as it was before our CSV export neutralised it against formula injection
 * (`'=x` back to `=x`; see write.ts), so an exported equations.csv reads back onto the same
 * students. Only a quote followed by = + - @ tab or CR is taken off.
 */
export const unneutraliseId = (cell: string): string => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** The line-ending convention of a text: the one it uses, 'mixed', or 'none' (a single line). */
export type LineEnding = 'lf' | 'crlf' | 'cr' | 'mixed' | 'none';

export function detectLineEnding(text: string): LineEnding {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const cr = (text.match(/\r(?!\n)/g) ?? []).length;
  const lf = (text.match(/(?<!\r)\n/g) ?? []).length;
  const kinds = ([crlf ? 'crlf' : '', cr ? 'cr' : '', lf ? 'lf' : ''] as const).filter((k) => k !== '') as LineEnding[];
  return kinds.length === 0 ? 'none' : kinds.length === 1 ? kinds[0] : 'mixed';
}

/** Every line ending (CRLF, CR, LF) as LF: a CR-only file's lines are lines, not one long line. */
export const normaliseLineEndings = (text: string): string => text.replace(/\r\n?/g, '\n');

/** Offset of the first byte that is not valid UTF-8, or -1 when all of it is. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  for (let i = 0; i < buf.length;) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      n = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const c = buf[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
    }
    i += n + 1;
  }
  return -1;
}

/** 1-based line of a byte offset, counting CRLF, CR and LF each as one line break. */
export function lineOfByte(buf: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) {
    if (buf[i] === 0x0a) line++;
    else if (buf[i] === 0x0d && buf[i + 1] !== 0x0a) line++;
  }
  return line;
}

/** Decode a file's bytes as UTF-8, rejecting anything else with the line where it goes wrong. */
function decodeUtf8(buf: Uint8Array, file?: string): string {
  if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)) {
    throw new CsvFileError('the file is UTF-16 (it starts with a UTF-16 byte-order mark): save it as UTF-8 CSV', 1, file);
  }
  // The decoder checks the whole file natively; only a file it refuses is scanned for where.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    // located below
  }
  const bad = firstInvalidUtf8(buf);
  if (bad >= 0) {
    const hex = Array.from(buf.subarray(bad, bad + 4), (x) => x.toString(16).padStart(2, '0')).join(' ');
    throw new CsvFileError(
      `not valid UTF-8 text (bytes ${hex}, byte ${bad + 1} of the file): save the file as UTF-8 CSV (in Excel: "CSV UTF-8")`,
      lineOfByte(buf, bad),
      file,
    );
  }
  return new TextDecoder('utf-8').decode(buf);
}

/**
 * Where each record starts: the 1-based first line of every non-empty record, in order, as
 * csv-parse splits them (a quote opens a field only at its start; "" inside quotes is a quote).
 * Lenient (it never fails), so it can also place an error csv-parse reports; it gives the line
 * where a quoted field that is never closed opens. `text` has LF line endings.
 */
export function recordStartLines(text: string): { starts: number[]; unclosedQuoteAt?: number } {
  const starts: number[] = [];
  let line = 1;
  let inQuote = false;
  let openedAt = 0;
  let fieldStart = true;
  let recordStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuote) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else inQuote = false;
      } else if (c === '\n') line++;
      continue;
    }
    if (recordStart) {
      if (c === '\n') {
        line++;
        continue;
      }
      starts.push(line);
      recordStart = false;
    }
    if (c === '"' && fieldStart) {
      inQuote = true;
      openedAt = line;
    }
    fieldStart = c === ',' || c === '\n';
    if (c === '\n') {
      line++;
      recordStart = true;
    }
  }
  return inQuote ? { starts, unclosedQuoteAt: openedAt } : { starts };
}

/**
 * Parse CSV text with a header row. `required` columns must be present (others are kept but can
 * be ignored by the caller). Every record must have as many fields as the header.
 */
export function readCsv(input: string | Buffer, required: readonly string[], file?: string): CsvTable {
  let text = typeof input === 'string' ? input : decodeUtf8(input, file);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // One line-ending convention inside and between fields: CRLF and CR-only files read exactly as
  // LF ones (csv-parse would count CRLF inside a quoted field as two lines, and would keep a
  // CR-only file's CRs inside multi-line responses, which then read differently).
  text = normaliseLineEndings(text);
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    const line = text.slice(0, nul).split('\n').length;
    throw new CsvFileError(
      'a NUL byte (\\0) in the data: the file is binary or not UTF-8 text (UTF-16?); remove it, or save the file as UTF-8 CSV',
      line,
      file,
    );
  }
  if (text.trim() === '') throw new CsvFileError(`empty file: expected a header row (${required.join(',')})`, 1, file);
  return parseCsvText(text, required, file);
}

/**
 * The records of CSV text already decoded, checked for NUL bytes and with LF line endings (readCsv,
 * or one piece of a file read in pieces: csv-pieces.ts). `lineOf` maps a line of `text` to the
 * file's line (a piece is parsed behind the file's header record; its lines are elsewhere in the
 * file): every line reported, in a row or in an error message, goes through it.
 */
export function parseCsvText(text: string, required: readonly string[], file?: string, lineOf: (line: number) => number = (n) => n): CsvTable {
  // Records without csv-parse's per-record info (a third of its time on a large file): the scan
  // below says where each starts; the info is asked for only if the two ever disagree.
  let plain: string[][];
  try {
    plain = parse(text, { relax_column_count: false, skip_empty_lines: true, record_delimiter: '\n' }) as never;
  } catch (e) {
    const err = e as Error & { lines?: number; code?: string; records?: number };
    const reason = err.message
      .replace(/^Invalid (Record|Opening|Closing)[^:]*:\s*/i, '')
      .replace(/\s+/g, ' ')
      .replace(/line (\d+)/g, (_, n: string) => `line ${lineOf(Number(n))}`);
    // csv-parse counts lines up to where it noticed the problem (a multi-line record's last
    // line); the instructor needs the line where the record, or the unclosed quote, starts.
    const scan = recordStartLines(text);
    const start = err.records !== undefined ? scan.starts[err.records] : undefined;
    let line = err.code === 'CSV_QUOTE_NOT_CLOSED' ? (scan.unclosedQuoteAt ?? start ?? err.lines) : (start ?? err.lines);
    if (line !== undefined && err.lines !== undefined && line > err.lines) line = err.lines;
    let why = describeCsvError(err.code, err.message) ?? reason;
    if (err.code === 'CSV_QUOTE_NOT_CLOSED')
      why = 'a quoted field opens here and is never closed: everything after it to the end of the file would be one field (add the closing ")';
    else if (line !== undefined && err.lines !== undefined && err.lines > line) {
      why =
        err.code === 'CSV_INVALID_CLOSING_QUOTE'
          ? `a quoted field that opens in this record is closed on line ${lineOf(err.lines)} by a quote followed by other text: is its closing " missing? (a " inside a quoted field must be doubled: "")`
          : `${why}; the record runs from line ${lineOf(line)} to line ${lineOf(err.lines)}`;
    }
    throw new CsvFileError(why, line === undefined ? undefined : lineOf(line), file);
  }
  if (plain.length === 0) throw new CsvFileError('no header row', 1, file);
  const header = plain[0].map((h) => h.trim());
  const missing = required.filter((c) => !header.includes(c));
  if (missing.length)
    throw new CsvFileError(
      `missing column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')}; header is '${header.join(',')}', expected ${required.join(',')}`,
      1,
      file,
    );
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (dup) throw new CsvFileError(`column '${dup}' appears twice in the header`, 1, file);
  // csv-parse reports info.lines as the line where the record ends; the scan says where each starts.
  const { starts } = recordStartLines(text);
  const rows: CsvRow[] = [];
  const valuesOf = (record: string[]): Record<string, string> => {
    const values: Record<string, string> = {};
    header.forEach((h, j) => (values[h] = record[j]));
    return values;
  };
  if (starts.length === plain.length) {
    for (let i = 1; i < plain.length; i++) rows.push({ line: lineOf(starts[i]), values: valuesOf(plain[i]) });
    return { header, rows };
  }
  const records = parse(text, { info: true, relax_column_count: false, skip_empty_lines: true, record_delimiter: '\n' }) as unknown as {
    record: string[];
    info: { lines: number };
  }[];
  let prevEnd = records[0].info.lines;
  for (let i = 1; i < records.length; i++) {
    const { record, info } = records[i];
    const newlines = record.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);
    rows.push({ line: lineOf(Math.max(prevEnd + 1, info.lines - newlines)), values: valuesOf(record) });
    prevEnd = info.lines;
  }
  return { header, rows };
}

function describeCsvError(code: string | undefined, message: string): string | undefined {
  switch (code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_DONT_MATCH_COLUMNS_LENGTH': {
      const m = /expect(?:ed)? (\d+), got (\d+)/i.exec(message);
      const fix = 'every row needs one field per header column; put a field that contains a comma in double quotes';
      return m ? `wrong number of fields: expected ${m[1]}, got ${m[2]} (${fix})` : `wrong number of fields (${fix})`;
    }
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (missing closing ")';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'unexpected character after a closing quote (a " inside a quoted field must be doubled: "")';
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'unexpected character after a closing quote (a " inside a quoted field must be doubled: "")';
    case 'INVALID_OPENING_QUOTE':
      return 'a quote inside an unquoted field (quote the whole field and double the inner ")';
    default:
      return undefined;
  }
}
