// Records kept for every response a model read: enough to prove which model (name + digest) read
// it, with which prompts, what it replied, and what that cost.
import type { Equation } from '../../../../shared/equation/index.ts';
import type { Domain, Question } from '../../../../shared/exam.ts';
import type { Extraction } from '../../../../shared/extraction.ts';
import type { ListComparison } from '../../decide/entail/types.ts';
import type { ChatMessage } from '../ollama/client.ts';
import type { TechniqueName } from '../../../../shared/techniques.ts';

export type ModelRef = { name: string; digest: string };

export type CallRecord = {
  model: string;
  digest: string;
  purpose: 'extract' | 'repair' | 'consensus';
  /** 0 for the first reading; repair/consensus rounds count from 1. */
  round: number;
  /** Piece index for per-line reading. */
  piece?: number;
  /** Consensus exchange round (1..3) for calls made in the consensus loop. */
  consensusRound?: number;
  messages: ChatMessage[];
  options: Record<string, unknown>;
  reply: string;
  tokensIn: number;
  tokensOut: number;
  wallMs: number;
  startedAt: number;
  cached: boolean;
  attempts: number;
  /** Failed attempts before the one that worked. */
  retried: string[];
};

export type Reading = { reader: string; equations: string[] };

export type ResponseRecord = {
  id: string;
  questionId: string;
  /** A model technique, or embedded/plain when a batch was read without a model (eval). */
  technique: TechniqueName;
  models: ModelRef[];
  calls: CallRecord[];
  /** Each reader's final list (models, and the embedded extractor in hybrid). */
  readings: Reading[];
  /** Equations held back as possibly invented (not traceable to the text), with why. */
  ungrounded: { source: string; reasons: string[] }[];
  /** What the embedded extractor read (hybrid). */
  embedded?: Extraction;
  /**
   * Consensus: whether the agreed list was reached independently (both blind readings hold every
   * agreed equation) and, when not, which equation a model took up only after seeing the other's list.
   */
  agreement?: { independent: boolean; adopted: { source: string; model: string }[] };
  /**
   * Hybrid: the model also read a response the embedded extractor had read, because the extractor
   * made a reading choice (`alternatives`); `read` then needs both readings to agree.
   */
  secondReader?: boolean;
  /** Ollama was unreachable: the response waits for the model (re-run to resume). */
  waiting: boolean;
  error?: string;
  wallMs: number;
};

export type ListComparer = (a: Equation[], b: Equation[], domain: Domain) => Promise<ListComparison>;

export type ResponseInput = { id: string; text: string; question?: Question };
