// The exam format `exam.v1` (see README "Exam format"): questions, variables with assumptions,
// the target variable and marking-scheme items with accepted forms.
import { z } from 'zod';

export const ASSUMPTIONS = ['positive', 'nonnegative', 'nonzero', 'real'] as const;
export type Assumption = (typeof ASSUMPTIONS)[number];

export const VariableSchema = z.object({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a variable name is letters, digits and _ (v, S, v_0, theta)'),
  description: z.string().default(''),
  assumptions: z.array(z.enum(ASSUMPTIONS)).default([]),
  /** Open interval (low, high). */
  range: z.tuple([z.number(), z.number()]).optional(),
});

export const SchemeItemSchema = z.object({
  id: z.string().min(1),
  description: z.string().default(''),
  marks: z.number().nonnegative(),
  match: z.enum(['implied', 'equivalent', 'answer']).optional(),
  accept: z.array(z.string()).default([]),
  manual: z.boolean().optional(),
});

export const QuestionSchema = z.object({
  id: z.string().min(1),
  title: z.string().default(''),
  prompt: z.string().default(''),
  variables: z.array(VariableSchema),
  target: z.string().optional(),
  scheme: z.array(SchemeItemSchema),
  answer: z.string().optional(),
});

export const ExamSchema = z.object({
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
