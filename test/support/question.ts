// A question for extractor tests: its variables from [name, description] pairs, each assumed positive.
import type { Question } from '../../shared/exam.ts';

export function questionOf(id: string, prompt: string, target: string, variables: [string, string][]): Question {
  return {
    id,
    title: '',
    prompt,
    variables: variables.map(([name, description]) => ({ name, description, assumptions: ['positive' as const] })),
    target,
    scheme: [],
  };
}
