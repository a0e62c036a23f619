// Small wordings the response view's parts share.
import { exprToLatex } from '../../../shared/equation/index.ts';

/** Who read a response, in words: 'the embedded extractor', 'the model qwen2.5:7b'... */
export const sourceLabel = (s: string) =>
  s === 'embedded'
    ? 'the embedded extractor'
    : s.startsWith('model:')
      ? `the model ${s.slice(6)}`
      : s === 'consensus'
        ? 'two models in agreement'
        : s === 'manual'
          ? 'you (corrected by hand)'
          : s === 'given'
            ? 'a given list'
            : s;

/** A variable's name as LaTeX (for 'v = ...', 'v \\to ...'). */
export const symTex = (name: string) => exprToLatex({ kind: 'sym', name });
