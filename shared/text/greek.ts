// Greek letters: their names as SymPy spells them (and LaTeX, with a backslash), and the unicode
// characters students type for them. One table, used by the grammar's helpers, the embedded
// extractor and the model pipeline's guards. Pure.

export const GREEK_LOWER = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'zeta',
  'eta',
  'theta',
  'iota',
  'kappa',
  'lambda',
  'mu',
  'nu',
  'xi',
  'omicron',
  'pi',
  'rho',
  'sigma',
  'tau',
  'upsilon',
  'phi',
  'chi',
  'psi',
  'omega',
] as const;
export const GREEK_UPPER = ['Gamma', 'Delta', 'Theta', 'Lambda', 'Xi', 'Pi', 'Sigma', 'Upsilon', 'Phi', 'Psi', 'Omega'] as const;
export const GREEK_NAMES: ReadonlySet<string> = new Set<string>([...GREEK_LOWER, ...GREEK_UPPER]);

/** Lower-case names a variable can be called by (theta, omega_0); pi is the constant, not counted. */
export const GREEK_VARIABLE_NAMES: ReadonlySet<string> = new Set<string>(GREEK_LOWER.filter((g) => g !== 'pi'));

/**
 * Unicode Greek letters (with the variant forms ϑ and ϕ) and the name each stands for; also ħ,
 * not Greek but typed as one letter for the variable a question calls `hbar`.
 */
export const GREEK_CHARS: Readonly<Record<string, string>> = {
  ħ: 'hbar',
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'epsilon',
  ζ: 'zeta',
  η: 'eta',
  θ: 'theta',
  ϑ: 'theta',
  ι: 'iota',
  κ: 'kappa',
  λ: 'lambda',
  μ: 'mu',
  ν: 'nu',
  ξ: 'xi',
  π: 'pi',
  ρ: 'rho',
  σ: 'sigma',
  τ: 'tau',
  υ: 'upsilon',
  φ: 'phi',
  ϕ: 'phi',
  χ: 'chi',
  ψ: 'psi',
  ω: 'omega',
  Γ: 'Gamma',
  Δ: 'Delta',
  Θ: 'Theta',
  Λ: 'Lambda',
  Ξ: 'Xi',
  Π: 'Pi',
  Σ: 'Sigma',
  Φ: 'Phi',
  Ψ: 'Psi',
  Ω: 'Omega',
  // Look-alikes from other Unicode blocks (the increment sign, the ohm and micro signs, the lunate
  // epsilon, Planck's ℏ): dropped as punctuation they lose a symbol ("∆λ" read as λ).
  '∆': 'Delta',
  '\u2126': 'Omega', // the ohm sign, Ω
  µ: 'mu',
  ϵ: 'epsilon',
  ℏ: 'hbar',
};
