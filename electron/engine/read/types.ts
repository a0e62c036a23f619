// The reader contract: anything that turns a response's text into an Extraction (the
// plain reader, the embedded extractor, the model pipeline) implements Extractor.
import type { Question } from '../../../shared/exam.ts';
import type { Extraction } from '../../../shared/extraction.ts';

export type { Extraction };

export interface Extractor {
  /** Stable name, recorded with the extraction ("plain", "embedded", "model:qwen"). */
  name: string;
  extract(text: string, q: Question): Extraction | Promise<Extraction>;
}
