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
  /**
   * SI unit as a physicist writes it (`m/s`, `kg`, `N`, `J`, `m/s^2`; `1` for dimensionless).
   * Optional: equations are checked for dimensions only where every symbol in them has a unit.
   */
  unit: z.string().min(1).optional(),
});

/** A named physical constant (`g = 9.81 m/s^2`, `c`, `G`, `k_B`): its value and SI unit. */
export const ConstantSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a constant name is letters, digits and _ (g, c, G, k_B)'),
  description: z.string().default(''),
  value: finite('a constant value'),
  unit: z.string().min(1),
});

/** A value the question gives for one of its variables (`h = 5 m`): used to check symbolic answers numerically. */
export const GivenValueSchema = z.strictObject({
  name: z.string().min(1),
  value: finite('a given value'),
  unit: z.string().min(1).optional(),
});

/** What a `match: "numeric"` item expects: a value with a unit, a tolerance and optional significant figures. */
export const NumericExpectationSchema = z.strictObject({
  /** The variable the value is for; default the question's `target`. */
  quantity: z.string().optional(),
  value: finite('a numeric value'),
  /** Unit of `value` (and of `absolute`); `1` for a dimensionless number. */
  unit: z.string().min(1).default('1'),
  /** Relative tolerance (0.02 = 2%). */
  relative: z.number().positive().optional(),
  /** Absolute tolerance, in `unit`. */
  absolute: z.number().positive().optional(),
  /** Significant figures the answer must be given to (checked only when set). */
  sig_figs: z.number().int().positive().optional(),
});

export const SchemeItemSchema = z.strictObject({
  id: z.string().min(1),
  description: z.string().default(''),
  marks: finite('marks')
    .refine((x) => x >= 0, { message: 'marks must not be negative' })
    .refine((x) => x <= MAX_ITEM_MARKS, { message: `marks must be at most ${MAX_ITEM_MARKS} per item` }),
  match: z.enum(['implied', 'equivalent', 'answer', 'numeric']).optional(),
  accept: z.array(z.string()).default([]),
  manual: z.boolean().optional(),
  /** For `match: "numeric"`: the expected value. */
  numeric: NumericExpectationSchema.optional(),
  /** Items whose wrong result this item may follow through from (error carried forward). */
  follow_through: z.array(z.string().min(1)).optional(),
  /** The equation that earns this item must be dimensionally consistent (needs units on its symbols). */
  require_dimensions: z.boolean().optional(),
});

export const QuestionSchema = z.strictObject({
  id: z.string().min(1),
  title: z.string().default(''),
  prompt: z.string().default(''),
  variables: z.array(VariableSchema),
  target: z.string().optional(),
  scheme: z.array(SchemeItemSchema),
  answer: z.string().optional(),
  /** Values the question gives (`h = 5 m`), for numeric checks of symbolic answers. */
  given: z.array(GivenValueSchema).optional(),
});

export const ExamSchema = z.strictObject({
  format: z.literal('exam.v1'),
  id: z.string().min(1),
  title: z.string().default(''),
  /** Named constants with value and unit, shared by every question. */
  constants: z.array(ConstantSchema).optional(),
  questions: z.array(QuestionSchema).min(1),
});

export type Variable = z.infer<typeof VariableSchema>;
export type Constant = z.infer<typeof ConstantSchema>;
export type GivenValue = z.infer<typeof GivenValueSchema>;
export type NumericExpectation = z.infer<typeof NumericExpectationSchema>;
export type SchemeItem = z.infer<typeof SchemeItemSchema>;
export type Question = z.infer<typeof QuestionSchema>;
export type Exam = z.infer<typeof ExamSchema>;

/** The variables' domain, as the entailment engine needs it. */
export type Domain = { variables: Pick<Variable, 'name' | 'assumptions' | 'range'>[] };

/** Domain of a question: its variables with their assumptions. */
export const questionDomain = (q: Question): Domain => ({ variables: q.variables });

/** The same variables over the reals with no assumptions (the extraction accuracy metric). */
export const realDomain = (q: Question): Domain => ({ variables: q.variables.map((v) => ({ name: v.name, assumptions: [] })) });
