// The reading techniques, in one place: their names, which need no model, one model or two, what
// the app calls them, and the one rule that says whether a technique has the models it needs.
// Pure (no Node, no DOM): the engine's registry (electron/engine/read/registry.ts), the Ollama
// pipeline, the CLI, the app service and the renderer all import from here.
//   embedded    the embedded extractor (shared/extract/), no model;
//   plain       the whole-text reader (responses written entirely as equations), no model;
//   direct, llm-modulo, per-line
//               one model;
//   consensus   two models that must agree;
//   hybrid      the embedded extractor first, then one model (or two that must agree) for the rest.

/** Every technique, as the CLI's --technique and the API name them. */
export const TECHNIQUE_NAMES = ['embedded', 'plain', 'direct', 'llm-modulo', 'consensus', 'per-line', 'hybrid'] as const;
export type TechniqueName = (typeof TECHNIQUE_NAMES)[number];

/** The techniques that read with a model (through Ollama). */
export const MODEL_TECHNIQUE_NAMES = ['direct', 'llm-modulo', 'consensus', 'per-line', 'hybrid'] as const satisfies readonly TechniqueName[];
export type ModelTechniqueName = (typeof MODEL_TECHNIQUE_NAMES)[number];

export const isTechniqueName = (name: string): name is TechniqueName => (TECHNIQUE_NAMES as readonly string[]).includes(name);
export const isModelTechnique = (name: string): name is ModelTechniqueName => (MODEL_TECHNIQUE_NAMES as readonly string[]).includes(name);

export type TechniqueInfo = {
  /** What the app shows, in an instructor's words. */
  label: string;
  note: string;
  /** How many models it needs (0, 1 or 2) and may use (hybrid: 1, or 2 that must agree). */
  minModels: 0 | 1 | 2;
  maxModels: 0 | 1 | 2;
};

/** What each technique is, and how many models it takes. */
export const TECHNIQUE_INFO: Record<TechniqueName, TechniqueInfo> = {
  hybrid: {
    label: 'Hybrid: extractor first, a model for the rest',
    note: 'The embedded extractor reads what it can with confidence; a model reads the rest (with two models, they must agree). Recommended.',
    minModels: 1,
    maxModels: 2,
  },
  'llm-modulo': {
    label: 'A model, checked by the grammar',
    note: 'A model reads every response; equations our grammar rejects go back to it to repair.',
    minModels: 1,
    maxModels: 1,
  },
  consensus: {
    label: 'Two models must agree',
    note: 'Two models read each response and compare readings; where they still disagree, you decide.',
    minModels: 2,
    maxModels: 2,
  },
  'per-line': { label: 'A model, line by line', note: 'Long responses are read in pieces by a model, each piece on its own.', minModels: 1, maxModels: 1 },
  direct: {
    label: 'A model, one pass',
    note: 'A model reads each response once, with no repair round (the fastest model technique).',
    minModels: 1,
    maxModels: 1,
  },
  embedded: {
    label: 'Embedded extractor',
    note: 'Runs inside Equimark on this computer. Fast, no model needed; unclear passages are left for you.',
    minModels: 0,
    maxModels: 0,
  },
  plain: {
    label: 'Plain reader',
    note: 'Reads only responses written entirely as equations; everything else goes to you for review.',
    minModels: 0,
    maxModels: 0,
  },
};

/** The order the app offers them in. */
export const TECHNIQUE_ORDER: readonly TechniqueName[] = ['hybrid', 'llm-modulo', 'consensus', 'per-line', 'direct', 'embedded', 'plain'];

const given = (m: string | null | undefined): string | undefined => (m ?? '').trim() || undefined;

/**
 * Whether `technique` has the models it needs: the problem in words ("technique 'consensus' needs
 * a second model"), or null when it can run. A model a technique does not use is ignored, not a
 * problem (embedded with a model configured reads without it). Callers add how to give one
 * ("--model2 NAME", "choose two").
 */
export function checkModels(technique: string, model?: string | null, model2?: string | null): string | null {
  if (!isTechniqueName(technique)) return `unknown technique '${technique}' (available: ${TECHNIQUE_NAMES.join(', ')})`;
  const { minModels } = TECHNIQUE_INFO[technique];
  if (minModels >= 1 && !given(model)) return `technique '${technique}' needs a model`;
  if (minModels >= 2 && !given(model2)) return `technique '${technique}' needs a second model`;
  return null;
}

/** The models a technique reads with, in order (what it ignores left out): [] for embedded, [m1, m2] for consensus. */
export function modelsUsed(technique: string, model?: string | null, model2?: string | null): string[] {
  if (!isTechniqueName(technique)) return [];
  const first = given(model);
  if (!first) return [];
  const second = given(model2);
  return (second ? [first, second] : [first]).slice(0, TECHNIQUE_INFO[technique].maxModels);
}

/** Whether the technique compares two models' readings (consensus; hybrid given a second model). */
export const readsWithTwoModels = (technique: string, model?: string | null, model2?: string | null): boolean =>
  modelsUsed(technique, model, model2).length === 2;
