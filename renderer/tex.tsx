// KaTeX rendering. The LaTeX always comes from our own printer applied to a parsed AST, never
// from raw student text, and KaTeX runs with trust off.
import katex from 'katex';
import { useMemo } from 'react';
import { equationToLatex, parseEquation, formatErrors, type ParseError } from '../shared/equation/index.ts';

export function Tex({ latex, block = false }: { latex: string; block?: boolean }) {
  const html = useMemo(() => katex.renderToString(latex, { throwOnError: false, displayMode: block, trust: false, output: 'html' }), [latex, block]);
  return <span className={block ? 'tex tex-block' : 'tex'} dangerouslySetInnerHTML={{ __html: html }} />;
}

export type Checked = { ok: true; latex: string } | { ok: false; errors: ParseError[] };

export function checkEquation(src: string, variables?: readonly string[]): Checked {
  const r = parseEquation(src, variables ? { variables } : {});
  return r.ok ? { ok: true, latex: equationToLatex(r.value) } : { ok: false, errors: r.errors };
}

/** A SymPy-source input with live validation (the grammar's own messages) and a KaTeX preview. */
export function EquationField(props: {
  value: string;
  onChange(v: string): void;
  variables?: readonly string[];
  label?: string;
  onRemove?(): void;
  autoFocus?: boolean;
}) {
  const checked = useMemo(() => (props.value.trim() ? checkEquation(props.value, props.variables) : null), [props.value, props.variables]);
  return (
    <div className={`eqfield ${checked && !checked.ok ? 'invalid' : ''}`}>
      <div className="eqfield-row">
        <input
          className="mono"
          aria-label={props.label ?? 'equation (SymPy source)'}
          value={props.value}
          spellCheck={false}
          autoFocus={props.autoFocus}
          placeholder="Eq(v, u + w)"
          onChange={(e) => props.onChange(e.target.value)}
        />
        {props.onRemove && (
          <button type="button" className="icon" title="Remove this equation" aria-label="remove equation" onClick={props.onRemove}>
            ×
          </button>
        )}
      </div>
      <div className="eqfield-preview" aria-live="polite">
        {checked === null ? (
          <span className="muted">empty</span>
        ) : checked.ok ? (
          <Tex latex={checked.latex} />
        ) : (
          <span className="error">{formatErrors(checked.errors)}</span>
        )}
      </div>
    </div>
  );
}

/** An editable list of equations (each an EquationField) with "+ add an equation". */
export function EquationListEditor(props: {
  equations: string[];
  onChange(eqs: string[]): void;
  variables?: readonly string[];
  onHover?(i: number | null): void;
}) {
  const { equations: eqs, onChange } = props;
  return (
    <>
      <ol className="eqlist">
        {eqs.map((e, i) => (
          <li key={i} onMouseEnter={() => props.onHover?.(i)} onMouseLeave={() => props.onHover?.(null)}>
            <EquationField
              value={e}
              variables={props.variables}
              label={`equation ${i + 1}`}
              onChange={(v) => onChange(eqs.map((x, k) => (k === i ? v : x)))}
              onRemove={() => onChange(eqs.filter((_, k) => k !== i))}
            />
          </li>
        ))}
      </ol>
      <button className="link" onClick={() => onChange([...eqs, ''])}>
        + add an equation
      </button>
    </>
  );
}
