// Small strict argument parser: `--name value`, `--flag`, positionals. Unknown options are errors.
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `values`: options taking a value once; `lists`: options that may be given several times (their values joined with LIST_SEP); `flags`: no value. */
export type ArgSpec = { values: readonly string[]; flags: readonly string[]; lists?: readonly string[] };

/** Separator of a list option's values in `opts` (a newline: it is in no URL or name). */
export const LIST_SEP = '\n';

/** The values of a list option (empty when not given). */
export const listOption = (opts: Record<string, string>, name: string): string[] => (opts[name] === undefined ? [] : opts[name].split(LIST_SEP));

export function parseArgs(argv: readonly string[], spec: ArgSpec): { opts: Record<string, string>; flags: Set<string>; positionals: string[] } {
  const opts: Record<string, string> = {};
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      if (spec.flags.includes(name)) {
        if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
        flags.add(name);
      } else if (spec.values.includes(name)) {
        const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined || (eq < 0 && v.startsWith('--'))) throw new UsageError(`option --${name} needs a value`);
        if (name in opts && !spec.lists?.includes(name)) throw new UsageError(`option --${name} given twice`);
        opts[name] = name in opts ? `${opts[name]}${LIST_SEP}${v}` : v;
      } else {
        const known = [...spec.values, ...spec.flags].map((n) => `--${n}`).join(', ');
        throw new UsageError(`unknown option ${a}${known ? ` (options: ${known})` : ''}`);
      }
    } else positionals.push(a);
  }
  return { opts, flags, positionals };
}
