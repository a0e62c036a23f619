// The response's audit history: every reading, mark, correction and override, with its comment.
import type { ResponseDetail } from '../../../shared/api.ts';

export function History({ audit }: { audit: ResponseDetail['audit'] }) {
  if (audit.length === 0) return null;
  return (
    <details className="card">
      <summary>History of changes ({audit.length})</summary>
      <table className="plain small">
        <tbody>
          {audit.map((a, i) => (
            <tr key={i}>
              <td className="nowrap muted">{new Date(a.at).toLocaleString()}</td>
              <td>{a.what}</td>
              <td className="mono">{a.old ?? ''}</td>
              <td className="mono">{a.new ?? ''}</td>
              <td>{a.comment ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
