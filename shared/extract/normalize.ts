// Text normalisation for the embedded extractor: LaTeX source and unicode maths become plain ASCII
// maths (`\frac{a}{b}` -> `((a)/(b))`, `√` -> `sqrt`, `²` -> `^2`, `θ` -> `theta`), keeping for every
// output character the range of the original text it came from, so spans point into the response.
// Pure: no Node, no DOM.

import { GREEK_CHARS, GREEK_NAMES } from '../text/greek.ts';

/** A string with, for each character, the [from, to) range of the original text it stands for. */
export type Mapped = { text: string; from: number[]; to: number[]; /** LaTeX nested past MAX_LATEX_DEPTH: not all converted. */ tooDeep?: boolean };

export function identity(text: string): Mapped {
  const from = new Array<number>(text.length);
  const to = new Array<number>(text.length);
  for (let i = 0; i < text.length; i++) {
    from[i] = i;
    to[i] = i + 1;
  }
  return { text, from, to };
}

/** Builds a Mapped string from pieces of a source Mapped string. */
class Builder {
  private readonly parts: string[] = [];
  readonly from: number[] = [];
  readonly to: number[] = [];
  constructor(private readonly src: Mapped) {}
  /** Emit `s` standing for source characters [a, b). */
  put(s: string, a: number, b: number): void {
    if (s.length === 0) return;
    const f = this.src.from[a] ?? this.src.to[this.src.to.length - 1] ?? 0;
    const t = this.src.to[Math.max(a, b - 1)] ?? f;
    this.parts.push(s);
    for (let i = 0; i < s.length; i++) {
      this.from.push(f);
      this.to.push(t);
    }
  }
  /** Copy source character i unchanged. */
  copy(i: number): void {
    this.parts.push(this.src.text[i]);
    this.from.push(this.src.from[i]);
    this.to.push(this.src.to[i]);
  }
  done(): Mapped {
    return { text: this.parts.join(''), from: this.from, to: this.to };
  }
}

const LATEX_WORDS: Record<string, string> = {
  sin: 'sin',
  cos: 'cos',
  tan: 'tan',
  ln: 'ln',
  log: 'log',
  exp: 'exp',
  arcsin: 'asin',
  arccos: 'acos',
  arctan: 'atan',
  cdot: '*',
  times: '*',
  ast: '*',
  div: '/',
  pm: '±',
  mp: '∓',
  Rightarrow: '⇒',
  implies: '⇒',
  Longrightarrow: '⇒',
  longrightarrow: '⇒',
  rightarrow: '⇒',
  to: '→',
  iff: '⇒',
  therefore: ' ; ',
  because: ' ; ',
  gg: ' >> ',
  ll: ' << ',
  approx: ' ~ ',
  sim: ' ~ ',
  simeq: ' ~ ',
  propto: ' ~ ',
  neq: ' ≠ ',
  ne: ' ≠ ',
  leq: ' ≤ ',
  le: ' ≤ ',
  geq: ' ≥ ',
  ge: ' ≥ ',
  lt: ' < ',
  gt: ' > ',
  infty: ' infinity ',
  quad: ' ',
  qquad: ' ',
  displaystyle: ' ',
  textstyle: ' ',
  left: '',
  right: '',
  big: '',
  Big: '',
  bigl: '',
  bigr: '',
  Bigl: '',
  Bigr: '',
  ldots: ' ... ',
  dots: ' ... ',
  cdots: ' ... ',
  degree: ' degrees ',
  circ: ' degrees ',
};
const LATEX_TEXT = new Set(['text', 'mathrm', 'mathit', 'textrm', 'textit', 'operatorname', 'mathbf', 'boldsymbol', 'mbox', 'mathcal']);
const LATEX_FRAC = new Set(['frac', 'dfrac', 'tfrac', 'cfrac']);

/** Whether the text contains LaTeX worth converting (a braced power `10^{-3}` counts). */
export const hasLatex = (s: string): boolean => /\\[A-Za-z]|\$|\\[,;!]|[_^]\{/.test(s);

/** LaTeX source to plain maths. Unknown commands become a word (prose), never a guess. */
export function latexToPlain(src: Mapped): Mapped {
  const s = src.text;
  const b = new Builder(src);
  const close = matchingBraces(s);
  const command = /\\[A-Za-z]+/y;
  // Read one argument starting at i (after spaces): a {group} or one character. Returns [start, end, next].
  const arg = (i: number): [number, number, number] | null => {
    let j = i;
    while (s[j] === ' ') j++;
    if (j >= s.length) return null;
    if (s[j] === '{') {
      const k = close[j];
      return k >= 0 ? [j + 1, k, k + 1] : null;
    }
    if (s[j] === '\\') {
      command.lastIndex = j;
      const m = command.exec(s);
      if (m) return [j, j + m[0].length, j + m[0].length];
    }
    return [j, j + 1, j + 1];
  };
  const commandName = /\\([A-Za-z]+)/y;
  let depth = 0;
  const walk = (i: number, end: number): void => {
    // Arguments inside arguments (\frac{\frac{...}}): past MAX_LATEX_DEPTH the rest is not read.
    if (++depth > MAX_LATEX_DEPTH) {
      tooDeep = true;
      b.put(' ', i, end);
      depth--;
      return;
    }
    while (i < end) {
      const c = s[i];
      if (c === '$') {
        b.put(' $ ', i, i + 1);
        i++;
        continue;
      }
      if (c === '&') {
        b.put(' ', i, i + 1);
        i++;
        continue;
      }
      if (c === '\\') {
        commandName.lastIndex = i;
        let m = commandName.exec(s);
        // (A name running past the end of the argument stops there.)
        if (m && i + m[0].length > end) m = end - i > 1 ? (/^\\([A-Za-z]+)/.exec(s.slice(i, end)) as RegExpExecArray) : null;
        if (!m) {
          const nxt = s[i + 1];
          if (nxt === '\\') b.put('\n', i, i + 2);
          else if (nxt === '{' || nxt === '}') b.put(nxt === '{' ? '(' : ')', i, i + 2);
          else b.put(' ', i, i + 2);
          i += 2;
          continue;
        }
        const name = m[1];
        const cmdEnd = i + m[0].length;
        if (LATEX_FRAC.has(name)) {
          const a1 = arg(cmdEnd);
          const a2 = a1 && arg(a1[2]);
          if (a1 && a2) {
            b.put('((', i, cmdEnd);
            walk(a1[0], a1[1]);
            b.put(')/(', a1[1], a2[0]);
            walk(a2[0], a2[1]);
            b.put('))', a2[1], a2[2]);
            i = a2[2];
            continue;
          }
        }
        if (name === 'sqrt') {
          let j = cmdEnd;
          while (s[j] === ' ') j++;
          if (s[j] === '[') {
            // n-th roots are not in the grammar: leave a word so the span stays unread.
            b.put(' nthroot ', i, j + 1);
            i = j + 1;
            continue;
          }
          const a1 = arg(cmdEnd);
          if (a1) {
            b.put(' sqrt(', i, a1[0]);
            walk(a1[0], a1[1]);
            b.put(')', a1[1], a1[2]);
            i = a1[2];
            continue;
          }
        }
        // "\dot m", "\dot{m}": the rate of m (a mass flow, ṁ), the name m_dot.
        if (name === 'dot') {
          const a1 = arg(cmdEnd);
          const letter = a1 ? /^\s*([A-Za-z])\s*$/.exec(s.slice(a1[0], a1[1])) : null;
          if (a1 && letter) {
            b.put(` ${letter[1]}_dot `, i, a1[2]);
            i = a1[2];
            continue;
          }
        }
        if (LATEX_TEXT.has(name)) {
          const a1 = arg(cmdEnd);
          if (a1) {
            // "\mathcal{E}_{rms}", "\mathrm{V}_0": one letter with a subscript or power after it
            // stays glued to it (E_rms), where a word of text is set apart.
            const gap = /^\s*[A-Za-z]\s*$/.test(s.slice(a1[0], a1[1])) && /^[_^]/.test(s.slice(a1[2])) ? '' : ' ';
            b.put(gap, i, a1[0]);
            walk(a1[0], a1[1]);
            b.put(gap, a1[1], a1[2]);
            i = a1[2];
            continue;
          }
        }
        // "\log_{10}", "\log_10": the log to base 10, one word.
        const base10 = name === 'log' ? /^_(?:\{10\}|10)/.exec(s.slice(cmdEnd)) : null;
        if (base10) {
          b.put(' log10 ', i, cmdEnd + base10[0].length);
          i = cmdEnd + base10[0].length;
          continue;
        }
        if (Object.hasOwn(LATEX_WORDS, name)) {
          const w = LATEX_WORDS[name];
          b.put(/^[a-z]+$/.test(w) ? ` ${w} ` : w, i, cmdEnd);
          i = cmdEnd;
          continue;
        }
        if (name === 'hbar') {
          b.put(` hbar${s[cmdEnd] === '_' ? '' : ' '}`, i, cmdEnd);
          i = cmdEnd;
          continue;
        }
        // "\Delta L", "\Delta T": a change of a quantity, one name as "ΔL" is (DeltaL).
        const changed = name === 'Delta' ? /^\s*(?=[A-Za-z])/.exec(s.slice(cmdEnd, end)) : null;
        if (changed) {
          b.put(' Delta', i, cmdEnd + changed[0].length);
          i = cmdEnd + changed[0].length;
          continue;
        }
        if (GREEK_NAMES.has(name) || name === 'varepsilon' || name === 'vartheta' || name === 'varphi') {
          // Kept joined to a subscript: \theta_0 -> theta_0, one name; and a subscript itself:
          // K_\alpha -> K_alpha (as "K_α" is).
          const subscript = s[i - 1] === '_' || (s[i - 1] === '{' && s[i - 2] === '_');
          // "\omega t": the space only ends the command's name; the letter after it is glued on
          // (ωt, as in "\cos\omega t"), kept a name apart by NAME_BREAK.
          const gluedOn = / [A-Za-z]/y;
          gluedOn.lastIndex = cmdEnd;
          const glued = !subscript && gluedOn.test(s);
          b.put(`${subscript ? '' : ' '}${name.replace(/^var/, '')}${glued ? NAME_BREAK : s[cmdEnd] === '_' ? '' : ' '}`, i, glued ? cmdEnd + 1 : cmdEnd);
          i = glued ? cmdEnd + 1 : cmdEnd;
          continue;
        }
        // An unknown command is maths we can't read ("n\\hslash"), never prose to step over: a
        // symbol of no question (a name with '_', see tokens.ts), which leaves its run unread.
        b.put(` ${name}_command `, i, cmdEnd);
        i = cmdEnd;
        continue;
      }
      if ((c === '_' || c === '^') && s[i + 1] === '{') {
        const a1 = arg(i + 1);
        if (a1) {
          const inner = s.slice(a1[0], a1[1]);
          if (c === '_' && /^[A-Za-z0-9]+$/.test(inner)) {
            b.put(`_${inner}`, i, a1[2]);
            i = a1[2];
            continue;
          }
          // A Greek subscript, "K_{\alpha}" or "K_{α}": one name, K_alpha. So is an operator's name
          // or a word in text: "\lambda_{\min}", "v_{\text{max}}", "E_{\mathrm{rms}}".
          const greek = c === '_' ? (GREEK_CHARS[inner] ?? /^\\([A-Za-z]+)$/.exec(inner)?.[1] ?? '') : '';
          const word =
            c === '_'
              ? (/^\\(min|max)$/.exec(inner.trim())?.[1] ?? /^\\(?:text|mathrm|rm|mathit)\s*\{\s*([A-Za-z0-9]+)\s*\}$/.exec(inner.trim())?.[1])
              : undefined;
          if (word) {
            b.put(`_${word}`, i, a1[2]);
            i = a1[2];
            continue;
          }

          if (greek && GREEK_NAMES.has(greek)) {
            b.put(`_${greek}`, i, a1[2]);
            i = a1[2];
            continue;
          }
          b.put(c === '_' ? '_(' : '^(', i, a1[0]);
          walk(a1[0], a1[1]);
          b.put(')', a1[1], a1[2]);
          i = a1[2];
          continue;
        }
      }
      if (c === '{' || c === '}') {
        b.put(c === '{' ? '(' : ')', i, i + 1);
        i++;
        continue;
      }
      b.copy(i);
      i++;
    }
    depth--;
  };
  let tooDeep = false;
  walk(0, s.length);
  return { ...b.done(), ...(tooDeep ? { tooDeep } : {}) };
}

/** LaTeX arguments nested deeper than this are not read (the text is left unread, with the reason). */
export const MAX_LATEX_DEPTH = 64;

/** For each '{' the index of its '}' (-1 when unclosed), found in one pass. */
function matchingBraces(s: string): Int32Array {
  const close = new Int32Array(s.length).fill(-1);
  const open: number[] = [];
  for (let k = 0; k < s.length; k++) {
    if (s[k] === '{') open.push(k);
    else if (s[k] === '}' && open.length) close[open.pop()!] = k;
  }
  return close;
}

const UNICODE: Record<string, string> = {
  '½': '(1/2)',
  '¼': '(1/4)',
  '¾': '(3/4)',
  '⅓': '(1/3)',
  '⅔': '(2/3)',
  '·': '*',
  '×': '*',
  '⋅': '*',
  '∙': '*',
  '∗': '*',
  '÷': '/',
  '′': "'", // a prime (v′), not a quote
  '″': "''",
  '⁄': '/',
  '−': '-',
  '–': '-',
  '‐': '-',
  '‑': '-',
  '—': ' ; ',
  '―': ' ; ',
  '⇒': ' ⇒ ',
  '⟹': ' ⇒ ',
  '⟶': ' → ',
  '→': ' → ',
  '↦': ' → ',
  '⇔': ' ⇒ ',
  '≈': ' ~ ',
  '≃': ' ~ ',
  '∼': ' ~ ',
  '≅': ' ~ ',
  // Kept apart from '~' (an approximation): what follows a '∝' is a proportionality (surroundings.ts).
  '∝': ' ∝ ',
  '≫': ' >> ',
  '≪': ' << ',
  '≠': ' ≠ ',
  '≤': ' ≤ ',
  '≥': ' ≥ ',
  '∞': ' infinity ',
  '✓': ' ; ',
  '✔': ' ; ',
  '✗': ' ; ',
  '•': ' ; ',
  '…': ' ... ',
  '°': ' degrees ',
  '’': "'",
  '‘': "'",
  '“': '"',
  '”': '"',
  '\u00a0': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '₀': '_0',
  '₁': '_1',
  '₂': '_2',
  '₃': '_3',
  '₄': '_4',
  '₅': '_5',
  '₆': '_6',
  '₇': '_7',
  '₈': '_8',
  '₉': '_9',
  // Subscript letters ("vₓ" is v_x); a run of them ("vₘₐₓ") comes out as no name of the question.
  ₓ: '_x',
  ₑ: '_e',
  ₐ: '_a',
  ₒ: '_o',
  ₕ: '_h',
  ₖ: '_k',
  ₗ: '_l',
  ₘ: '_m',
  ₙ: '_n',
  ₚ: '_p',
  ₛ: '_s',
  ₜ: '_t',
  ᵢ: '_i',
  ⱼ: '_j',
  ᵣ: '_r',
  ᵤ: '_u',
  ᵥ: '_v',
  // Unicode has no subscript y: students type the subscript gamma ("vᵧ") for it.
  ᵧ: '_y',
  ℓ: 'l', // the script l of a length
};

/** Ends a name where the student typed none (a subscript digit before a letter): the tokenizer splits there, as at no space. */
export const NAME_BREAK = '\u2060';

const SUPERSCRIPT: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁻': '-',
  '⁺': '+',
};

/**
 * Numbers in e-notation (1.2e-3, 4E5) become a power of ten, (1.2*10^(-3)), so the exponent is
 * never lost to a letter read as a variable.
 */
export function sciToPlain(src: Mapped): Mapped {
  return replaceMatches(src, /(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?)[eE]([+-]?\d+)(?![A-Za-z0-9_.])/g, (m) => `(${m[1]}*10^(${m[2]}))`);
}

/**
 * A number in powers of ten typed with a times sign (2.9×10⁻³, 6.4 * 10^23) is one number, as
 * e-notation is: (2.9*10^(-3)), so "2.9×10⁻³ / 500×10⁻⁹" divides by the whole of 500×10⁻⁹, as
 * every marker reads it (read literally, the 10⁻⁹ would multiply). Not after a power ("x^2×10^3":
 * the 2 is an exponent) or inside a longer number or name.
 */
export function timesTenToPlain(src: Mapped): Mapped {
  return replaceMatches(
    src,
    /(?<![A-Za-z0-9_.]|\^\s*)(\d+(?:\.\d+)?)\s*\*\s*10\s*\^\s*(?:\(\s*([+-]?\s*\d+)\s*\)|([+-]?\d+))(?![0-9.^])/g,
    (m) => `(${m[1]}*10^(${(m[2] ?? m[3]).replace(/\s+/g, '')}))`,
  );
}

/** Each match of a global regex replaced, the offsets back to the original kept (Builder). */
/**
 * "(d) n = 1.33", "Part (c): B = …", "For (d): t = …": a part's letter or numeral in brackets
 * opening a line, or after "for", "in", "part", labels the answer, never multiplies it (read as
 * maths it made d·n = 1.33 where the question has a d). Not where an '=' follows it ("(d) = 5"
 * may give d its value).
 */
function partLabels(src: Mapped): Mapped {
  return replaceMatches(
    src,
    /(^|\n|\b(?:[Ff]or|[Ii]n|[Pp]art)[ \t]+)([ \t]*(?:[Pp]art\s+)?)\((?:[a-h]|i{1,3}|iv|vi?)\)(?=[ \t:.,\n]|$)(?![ \t:.,]*=)/g,
    (m) => `${m[1]}${m[2]} `,
  );
}

function replaceMatches(src: Mapped, re: RegExp, by: (m: RegExpMatchArray) => string): Mapped {
  const s = src.text;
  if (!re.test(s)) return src;
  re.lastIndex = 0;
  const b = new Builder(src);
  let i = 0;
  for (const m of s.matchAll(re)) {
    for (; i < m.index!; i++) b.copy(i);
    b.put(by(m), m.index!, m.index! + m[0].length);
    i = m.index! + m[0].length;
  }
  for (; i < s.length; i++) b.copy(i);
  return b.done();
}

/**
 * Unicode maths to ASCII. `√` becomes `sqrt` (its argument is worked out later), `±` stays
 * (two equations), arrows and relations stay as their own symbols. `greekForQuestionMark`: the
 * question's only Greek variable, which a lone `?` after sin/cos/tan or a digit stands for (a
 * Greek letter lost to encoding).
 */
export function unicodeToPlain(src: Mapped, greekForQuestionMark?: string, variables: readonly string[] = []): Mapped {
  const s = src.text;
  const b = new Builder(src);
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    // Plain ASCII (all but '?') is copied as it is: every character changed below is outside it.
    if (c.charCodeAt(0) < 0x80 && c !== '?') {
      b.copy(i);
      continue;
    }
    const g = GREEK_CHARS[c];
    if (g) {
      // Kept joined to a subscript or digit (θ₀, θ_0, θ0 -> theta_0, theta0: one name, as v₀ is v_0)
      // and to a letter (ωt -> omegat, which splits as the product omega*t but stays one tight
      // factor, so "cos ωt" is not read as cos(ω)*t).
      // Glued to a number before it too ("ω₀/2π" is ω₀/(2π) as "/2g" is /(2g); "4π²" one factor).
      const afterDigit = /[0-9]/.test(s[i - 1] ?? '');
      // A subscript: "K_α", "K_{α}" (K_alpha), and "Kα" glued where the question has K_alpha.
      const prev = s[i - 1] ?? '';
      const subscript = prev === '_' || (prev === '{' && s[i - 2] === '_');
      const gluedSubscript = /[A-Za-z]/.test(prev) && !/[A-Za-z]/.test(s[i - 2] ?? '') && variables.includes(`${prev}_${g}`);
      // Nor set apart from a times sign or '/' after it: "Δf/γ·G" is the same choice of how far the
      // '/' reaches as "Δf/gamma*G" (a space before the '*' had made it a product beside the fraction).
      const after = /[_0-9₀₁₂\p{L}'′*·×⋅/^]/u.test(s[i + 1] ?? '') ? '' : ' ';
      b.put(`${afterDigit || subscript ? '' : gluedSubscript ? '_' : ' '}${g}${after}`, i, i + 1);
      continue;
    }
    // "ṁ" (a letter with a dot above, one character or two): the rate of m, the name m_dot, as
    // "\dot m" is; set apart from a letter glued after it ("ṁu" is ṁ times u).
    const dotted = /^([A-Za-z])\u0307$/.exec(c.normalize('NFD'));
    if (dotted || (c === '\u0307' && /[A-Za-z]/.test(s[i - 1] ?? ''))) {
      const gap = /[\p{L}0-9]/u.test(s[i + 1] ?? '') ? ' ' : '';
      b.put(`${dotted ? dotted[1] : ''}_dot${gap}`, i, i + 1);
      continue;
    }
    if (c === '√' || c === '∛') {
      b.put(c === '√' ? ' sqrt ' : ' cbrt ', i, i + 1);
      continue;
    }
    if (c === '?' && greekForQuestionMark) {
      const before = s.slice(Math.max(0, i - 5), i);
      const after = s[i + 1] ?? '';
      const lost = (/(sin|cos|tan)\s?$/.test(before) || /[0-9(]$/.test(before)) && !/[?A-Za-z]/.test(after);
      if (lost) {
        b.put(` ${greekForQuestionMark} `, i, i + 1);
        continue;
      }
    }
    if (SUPERSCRIPT[c] !== undefined) {
      // A run of superscripts is one power: x²  -> x^2, 10⁻³ -> 10^(-3), x¹⁰ -> x^(10).
      let j = i;
      let pow = '';
      while (j < s.length && SUPERSCRIPT[s[j]] !== undefined) pow += SUPERSCRIPT[s[j++]];
      // A digit right after it starts the next factor ("sin²2θ" is sin(2θ)², not sin to the 22).
      const digitAfter = /[\d.]/.test(s[j] ?? '') ? ' ' : '';
      b.put(/^\d$/.test(pow) ? `^${pow}${digitAfter}` : `^(${pow})`, i, j);
      i = j - 1;
      continue;
    }
    // "t½" glued to its letter is the half-life's name (t_half), not t times ½. Only t or T, the
    // letters a half-life is written with: "η½mv²" is η·½·m·v² (read as a name η_half, which is
    // no variable, it had been left out as words, and mv² read alone).
    if (c === '½' && /[tT]/.test(s[i - 1] ?? '') && !/[A-Za-z\p{Script=Greek}]/u.test(s[i - 2] ?? '')) {
      b.put('_half ', i, i + 1);
      continue;
    }
    const u = UNICODE[c];
    if (u !== undefined) {
      // A subscript digit ends its name: "N₀e^(−λt)" is N_0 times e^(…), not a name N_0e.
      const endsName = /^_[\da-z]$/.test(u) && /\p{L}/u.test(s[i + 1] ?? '') && !UNICODE[s[i + 1]]?.startsWith('_');
      // A run of subscript characters is one subscript: "vₘₐₓ" is v_max, "T₁₂" T_12.
      const continues = u.startsWith('_') && UNICODE[s[i - 1]]?.startsWith('_');
      const put = continues ? u.slice(1) : u;
      // Ended by NAME_BREAK, not a space: "k₁k₂" stays a tight product (after '/', the whole
      // denominator), as "k_1k_2" would if the grammar could tell where k_1 ends.
      b.put(endsName ? `${put}${NAME_BREAK}` : put, i, i + 1);
      continue;
    }
    b.copy(i);
  }
  return b.done();
}

/**
 * "ln2", "ln10", "ln3.5": the natural log of a number glued to it, as in "λ = ln2/T". Only `ln` (a log with
 * digits glued on, "log2", "log10 x", is a log to that base) and not before a bracket ("ln2(x)").
 */
export function lnOfNumber(src: Mapped): Mapped {
  return replaceMatches(src, /(?<![A-Za-z0-9_])ln(\d+(?:\.\d+)?)(?![A-Za-z0-9_.(])/g, (m) => `ln(${m[1]})`);
}

/**
 * "200 x 50", "3x10^8", "0.6 x 9.8 x 50": the letter x between two numbers is a times sign, as
 * students type it without a × key. Only where the question has no variable x (or X): there
 * "2 x 3" could be the variable, and the letter is left for the reader.
 */
export function letterTimes(src: Mapped): Mapped {
  // After a digit, a closing bracket or π ("4π x 8.85x10^-12"); before a number or its bracket,
  // or, set apart by spaces on both sides, before a letter ("0.5 x 2 x v^2", "470e-6 x ln2").
  return replaceMatches(src, /(?<=(?:[0-9)]|(?<![A-Za-z])pi)[ \t]*)[xX](?=[ \t]*\(?[0-9])|(?<=[0-9)][ \t]+)[xX](?=[ \t]+[A-Za-z(])/g, () => '*');
}

/**
 * "V0 e^-t/RC", "T0 e^-kt", "90e^-0.04t": a negative exponent typed after "e^" without brackets
 * runs to the next space, as everyone who writes a decay means (e^(-t/RC)); bracketed here, so the
 * exponential is read as it is where the brackets were typed. Only a negative one: "e^2h" with e
 * the question's restitution coefficient is e²·h, as any power glued on is.
 */
export function bareExponent(src: Mapped): Mapped {
  // ("V0e^(−t/RC)", "T_0e^-kt": the e of the exponential glued to a name that ends in digits.)
  // (Matched forwards: a look-behind over the digits made a long run of digits quadratic.)
  src = replaceMatches(src, /(?<![A-Za-z0-9_])([A-Za-z]_?\d+)e(?=\^)/g, (m) => `${m[1]} e`);
  return replaceMatches(src, /(?<![A-Za-z_])e\^(-[A-Za-z0-9_.]+(?:\/[A-Za-z0-9_.]+)?)(?=$|[\s),;])/g, (m) => `e^(${m[1]})`);
}

/**
 * "10 000 N": digits grouped in threes by a space are one number, as SI writes them. Only groups
 * of exactly three digits after a lead of one to three, not part of a longer number or name. (A
 * comma is not taken: "1,500" may be a thousands separator or a decimal comma.)
 */
export function groupedThousands(src: Mapped): Mapped {
  return replaceMatches(src, /(?<![A-Za-z0-9_.,])\d{1,3}(?: \d{3})+(?![0-9]|[.,]\d)/g, (m) => m[0].replace(/ /g, ''));
}

/**
 * Full normalisation: LaTeX (when present), then unicode, a letter x typed as a times sign (when
 * `xIsTimes`), digits grouped in threes, e-notation, numbers times a power of ten, logs of numbers and bare exponents of e.
 */
export function normalize(text: string, greekForQuestionMark?: string, xIsTimes = false, variables: readonly string[] = []): Mapped {
  let m = partLabels(identity(text));
  // "35^{\circ}", "35^\circ": the degree sign, as "35°" is (a power of \circ read nothing).
  if (hasLatex(text)) m = latexToPlain(replaceMatches(m, /\^\s*(?:\{\s*\\circ\s*\}|\\circ(?![A-Za-z]))/g, () => '°'));
  const plain = unicodeToPlain(m, greekForQuestionMark, variables);
  const out = bareExponent(lnOfNumber(timesTenToPlain(sciToPlain(groupedThousands(xIsTimes ? letterTimes(plain) : plain)))));
  return m.tooDeep ? { ...out, tooDeep: true } : out;
}
