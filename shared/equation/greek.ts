// Greek letter names as SymPy spells them (and LaTeX, with a backslash).
export const GREEK_LOWER = [
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu',
  'nu', 'xi', 'omicron', 'pi', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega',
] as const;
export const GREEK_UPPER = ['Gamma', 'Delta', 'Theta', 'Lambda', 'Xi', 'Pi', 'Sigma', 'Upsilon', 'Phi', 'Psi', 'Omega'] as const;
export const GREEK_NAMES: ReadonlySet<string> = new Set<string>([...GREEK_LOWER, ...GREEK_UPPER]);
