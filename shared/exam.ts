// The exam format `exam.v1` (see README "Exam format"): questions, variables with assumptions,
// the target variable and marking-scheme items with accepted forms.
import { z } from 'zod';

export const ASSUMPTIONS = ['positive', 'nonnegative', 'nonzero', 'real'] as const;
export type Assumption = (typeof ASSUMPTIONS)[number];

/** The most marks one scheme item may carry (a sane bound: totals stay exact and finite). */
export const MAX_ITEM_MARKS = 1000;
/** Bound on a variable range's ends: finite, beyond any physical value (Avogadro, light's frequency), small enough that powers of it stay finite when sampled. */
export const MAX_RANGE = 1e100;

const finite = (what: string) => z.number().refine((x) => Number.isFinite(x), { message: `${what} must be a finite number` });
const rangeEnd = finite('a range end').refine((x) => Math.abs(x) <= MAX_RANGE, { message: `a range end must be between -${MAX_RANGE} and ${MAX_RANGE}` });

// Every object is strict: an unknown (say misspelt) key is an error, never silently dropped.

export const VariableSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a variable name is letters, digits and _ (v, S, v_0, theta)'),
  description: z.string().default(''),
  assumptions: z.array(z.enum(ASSUMPTIONS)).default([]),
  /** Open interval (low, high). */
  range: z.tuple([rangeEnd, rangeEnd]).optional(),
});

export const SchemeItemSchema = z.strictObject({
  id: z.string().min(1),
  description: z.string().default(''),
  marks: finite('marks')
    .refine((x) => x >= 0, { message: 'marks must not be negative' })
    .refine((x) => x <= MAX_ITEM_MARKS, { message: `marks must be at most ${MAX_ITEM_MARKS} per item` }),
  match: z.enum(['implied', 'equivalent', 'answer']).optional(),
  accept: z.array(z.string()).default([]),
  manual: z.boolean().optional(),
});

export const QuestionSchema = z.strictObject({
  id: z.string().min(1),
  title: z.string().default(''),
  prompt: z.string().default(''),
  variables: z.array(VariableSchema),
  target: z.string().optional(),
  scheme: z.array(SchemeItemSchema),
  answer: z.string().optional(),
});

export const ExamSchema = z.strictObject({
  format: z.literal('exam.v1'),
  id: z.string().min(1),
  title: z.string().default(''),
  questions: z.array(QuestionSchema).min(1),
});

export type Variable = z.infer<typeof VariableSchema>;
export type SchemeItem = z.infer<typeof SchemeItemSchema>;
export type Question = z.infer<typeof QuestionSchema>;
export type Exam = z.infer<typeof ExamSchema>;

/** The variables' domain, as the entailment engine needs it. */
export type Domain = { variables: Pick<Variable, 'name' | 'assumptions' | 'range'>[] };

/** Domain of a question: its variables with their assumptions. */
export const questionDomain = (q: Question): Domain => ({ variables: q.variables });

/** The same variables over the reals with no assumptions (the extraction accuracy metric). */
export const realDomain = (q: Question): Domain => ({ variables: q.variables.map((v) => ({ name: v.name, assumptions: [] })) });
