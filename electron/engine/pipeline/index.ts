export * from './batch.ts';
export * from './eval.ts';
export * from './guards.ts';
export * from './prompts.ts';
export * from './techniques.ts';
export * from './types.ts';
