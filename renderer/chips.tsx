import type { Chip } from '../shared/api.ts';

// Every chip's label and tone; a chip the API doesn't list yet ('addresses-marker' until
// shared/api.ts CHIPS has it) is simply never sent.
const LABELS = {
  extractor: 'read by extractor',
  imported: 'imported list',
  model: 'read by model',
  consensus: 'consensus reached',
  disagree: 'models disagree',
  invented: 'possible invention',
  attachment: 'attachment',
  blank: 'blank',
  overridden: 'overridden',
  corrected: 'corrected',
  inconsistent: 'impossible equation',
  'needs-review': 'needs review',
  'not-graded': 'not graded yet',
  'addresses-marker': 'addresses the marker',
  'ambiguous-reading': 'read more than one way',
  contradiction: 'contradiction',
  'symbol-reused': 'one symbol, two quantities',
  'dimensioned-argument': 'units in an exponent',
  'numbers-disagree': 'numbers differ',
  'earlier-text': 'made on earlier text',
  regrade: 'regrade requested',
  dimensions: 'dimensions differ',
};
export const CHIP_LABEL: Record<Chip, string> = LABELS;

const TONES = {
  extractor: 'info',
  imported: 'info',
  model: 'info',
  consensus: 'good',
  disagree: 'warn',
  invented: 'warn',
  attachment: 'warn',
  blank: 'muted',
  overridden: 'human',
  corrected: 'human',
  inconsistent: 'warn',
  'needs-review': 'warn',
  'not-graded': 'muted',
  'addresses-marker': 'warn',
  'ambiguous-reading': 'warn',
  contradiction: 'warn',
  'symbol-reused': 'warn',
  'dimensioned-argument': 'warn',
  'numbers-disagree': 'warn',
  'earlier-text': 'warn',
  regrade: 'human',
  dimensions: 'warn',
};
const TONE: Record<Chip, string> = TONES;

export function Chips({ chips }: { chips: Chip[] }) {
  return (
    <span className="chips">
      {chips.map((c) => (
        <span key={c} className={`chip chip-${TONE[c]}`} data-chip={c}>
          {CHIP_LABEL[c]}
        </span>
      ))}
    </span>
  );
}
