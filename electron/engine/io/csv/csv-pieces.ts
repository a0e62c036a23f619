// A CSV file read a piece at a time (issue 14: a class of 67,500 rows is never held whole). Each
// piece is whole records, cut at a line break outside quotes, and is parsed by read.ts's
// parseCsvText behind the file's header record, so it reads exactly as the whole file would:
// the same rows with the same lines, and for a bad file the same error at the same line (checked
// in test/engine/csv-pieces.test.ts). The pieces before a bad one have already been handed out.
import { createReadStream } from 'node:fs';
import { CsvFileError, firstInvalidUtf8, lineOfByte, parseCsvText, type CsvTable } from './read.ts';

export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** About 7,000 rows of a class's equations CSV a piece; its rows are imported in one transaction. */
export const PIECE_CHARS = 1 << 20;

/** A file's bytes, read 1 MiB at a time. */
export const fileBytes = (path: string): ByteSource => createReadStream(path, { highWaterMark: 1 << 20 });

const countLf = (s: string, end = s.length): number => {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0 && i < end; i = s.indexOf('\n', i + 1)) n++;
  return n;
};

/**
 * UTF-8 decoded a chunk at a time: a sequence cut by the chunk's end waits for the next chunk.
 * Invalid bytes are refused with the file's line and byte, as read.ts's whole-file decoding says.
 */
class Utf8Chunks {
  #carry: Uint8Array = new Uint8Array(0);
  #bytesBefore = 0;
  #first = true;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  constructor(readonly file: string | undefined) {}

  /** `lineAt0`: the file's line where these bytes start; `crBefore`: the text before ends in a CR. */
  decode(chunk: Uint8Array, final: boolean, lineAt0: number, crBefore: boolean): string {
    let buf = chunk;
    if (this.#carry.length) {
      buf = new Uint8Array(this.#carry.length + chunk.length);
      buf.set(this.#carry);
      buf.set(chunk, this.#carry.length);
    }
    if (this.#first && buf.length >= 2) {
      this.#first = false;
      if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))
        throw new CsvFileError('the file is UTF-16 (it starts with a UTF-16 byte-order mark): save it as UTF-8 CSV', 1, this.file);
    }
    let cut = buf.length;
    if (!final) {
      // Back over the continuation bytes at the end to their lead byte: an incomplete sequence waits.
      let j = buf.length - 1;
      while (j > 0 && j > buf.length - 4 && (buf[j] & 0xc0) === 0x80) j--;
      const b = buf[j];
      const n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 1;
      if (j + n > buf.length) cut = j;
    }
    const part = buf.subarray(0, cut);
    this.#carry = buf.slice(cut);
    let text: string;
    try {
      text = this.#decoder.decode(part);
    } catch {
      const bad = Math.max(0, firstInvalidUtf8(part));
      // The message shows the 4 bytes from the bad one: wait for them as the whole file would.
      if (!final && bad + 4 > buf.length) {
        this.#carry = buf.slice();
        return '';
      }
      const hex = Array.from(buf.subarray(bad, bad + 4), (x) => x.toString(16).padStart(2, '0')).join(' ');
      // A CR that ended the text before and an LF that starts this part are one line break.
      const line = lineAt0 + (crBefore && part[0] !== 0x0a ? 1 : 0) + lineOfByte(part, bad) - 1;
      throw new CsvFileError(
        `not valid UTF-8 text (bytes ${hex}, byte ${this.#bytesBefore + bad + 1} of the file): save the file as UTF-8 CSV (in Excel: "CSV UTF-8")`,
        line,
        this.file,
      );
    }
    this.#bytesBefore += part.length;
    return text;
  }
}

/** Where the last record that ends in the text so far ends: a line break outside quotes. */
class RecordEnds {
  i = 0;
  inQuote = false;
  fieldStart = true;
  /** Index just after the last line break outside quotes (0: none yet). */
  lastEnd = 0;
  scan(text: string, final: boolean): void {
    let i = this.i;
    for (; i < text.length; i++) {
      const c = text[i];
      if (this.inQuote) {
        if (c === '"') {
          if (i + 1 === text.length && !final) break; // a doubled quote may be cut here: wait
          if (text[i + 1] === '"') i++;
          else this.inQuote = false;
        }
        continue;
      }
      if (c === '"' && this.fieldStart) this.inQuote = true;
      this.fieldStart = c === ',' || c === '\n';
      if (c === '\n') this.lastEnd = i + 1;
    }
    this.i = i;
  }
  /** The first `n` characters were taken as a piece. */
  shift(n: number): void {
    this.i -= n;
    this.lastEnd -= n;
  }
}

/** The header record's text with the blank lines before it, or undefined if it doesn't end in `text`. */
function headerRecord(text: string): string | undefined {
  let i = 0;
  while (text[i] === '\n') i++;
  let inQuote = false;
  let fieldStart = true;
  for (; i < text.length; i++) {
    const c = text[i];
    if (inQuote) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else inQuote = false;
      }
      continue;
    }
    if (c === '"' && fieldStart) inQuote = true;
    fieldStart = c === ',' || c === '\n';
    if (c === '\n') return text.slice(0, i + 1);
  }
  return undefined;
}

/**
 * The records of a CSV file a piece of about `pieceChars` characters at a time: each piece's
 * rows (with their lines in the file) and the header. Throws CsvFileError, at the piece where the
 * file goes wrong, as readCsv would for the whole file.
 */
export async function* readCsvPieces(source: ByteSource, required: readonly string[], file?: string, pieceChars = PIECE_CHARS): AsyncGenerator<CsvTable> {
  const utf8 = new Utf8Chunks(file);
  let pending = ''; // LF text from a record boundary on
  let pendingLine = 1; // the file's line where `pending` starts
  let linesBefore = 0; // line breaks in the text decoded so far (a held CR not counted)
  let heldCr = false; // the text decoded so far ends in a CR: CRLF or a CR line break, the next chunk says
  let first = true;
  let header: { text: string; lines: number } | undefined;
  const ends = new RecordEnds();

  const piece = (text: string): CsvTable => {
    const at = pendingLine;
    pendingLine += countLf(text);
    if (!header) {
      if (text.trim() === '') throw new CsvFileError(`empty file: expected a header row (${required.join(',')})`, 1, file);
      const table = parseCsvText(text, required, file);
      const h = headerRecord(text);
      if (h !== undefined) header = { text: h, lines: countLf(h) };
      return table;
    }
    const { text: h, lines: H } = header;
    return parseCsvText(h + text, required, file, (n) => (n <= H ? n : n - H + at - 1));
  };

  const take = (final: boolean): CsvTable | undefined => {
    ends.scan(pending, final);
    const n = final ? pending.length : ends.lastEnd;
    if (!final && (pending.length < pieceChars || n === 0 || (!header && !/\S/.test(pending.slice(0, n))))) return undefined;
    const text = pending.slice(0, n);
    pending = pending.slice(n);
    ends.shift(n);
    return piece(text);
  };

  const add = (chunk: Uint8Array, final: boolean): void => {
    let text = utf8.decode(chunk, final, linesBefore + 1, heldCr);
    if (first && text.length) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (heldCr) text = `\r${text}`;
    heldCr = !final && text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    text = text.replace(/\r\n?/g, '\n');
    const nul = text.indexOf('\u0000');
    if (nul >= 0)
      throw new CsvFileError(
        'a NUL byte (\\0) in the data: the file is binary or not UTF-8 text (UTF-16?); remove it, or save the file as UTF-8 CSV',
        linesBefore + countLf(text, nul) + 1,
        file,
      );
    linesBefore += countLf(text);
    pending += text;
  };

  for await (const chunk of source) {
    add(chunk, false);
    for (let t = take(false); t; t = take(false)) yield t;
  }
  add(new Uint8Array(0), true);
  if (pending.length || !header) yield take(true)!;
}
