// What can go wrong with a SymPy request: a code the caller can branch on, and plain words.
export const SYMPY_NOT_FOUND = 'SymPy not found: install python3-sympy or set the Python path in Settings; grading continues with Z3 and numeric checks';

export type SympyErrorCode =
  | 'unavailable' // no Python with SymPy
  | 'timeout' // the request ran past its time limit
  | 'crashed' // the worker died while working on the request
  | 'memory' // the worker hit its memory limit
  | 'refused' // the input is outside the whitelist or the limits
  | 'bad-request'
  | 'too-complex'
  | 'failed' // SymPy raised on an accepted input
  | 'closed'; // close() was called

export class SympyError extends Error {
  constructor(
    readonly code: SympyErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SympyError';
  }
}
