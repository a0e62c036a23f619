// The settings file (JSON beside the workspace): read through the same zod schema the API uses,
// so a hand-edited or damaged file gives a clear message (which file, which field, what is
// wrong) and the defaults, never a crash; written whole on every change.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { SettingsSchema, type Settings } from '../../shared/api.ts';

export type LoadedSettings = {
  settings: Settings;
  /** What was wrong with the file (its defaults were used for what could not be read), or null. */
  problem: string | null;
};

/** Read the settings file over `defaults`: a missing file is the defaults; a bad one is the defaults and a problem saying why. */
export function loadSettings(path: string, defaults: Settings): LoadedSettings {
  if (!path || !existsSync(path)) return { settings: defaults, problem: null };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return { settings: defaults, problem: `settings file ${path} is not valid JSON (${(e as Error).message}); the defaults are used until Settings are saved` };
  }
  const parsed = SettingsSchema.partial().safeParse(raw);
  if (parsed.success) {
    const given = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
    return { settings: { ...defaults, ...given }, problem: null };
  }
  // Keep every field that is right; say which are not.
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')));
  const fields = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const good = SettingsSchema.partial().safeParse(Object.fromEntries(Object.entries(fields).filter(([k]) => !bad.has(k))));
  const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(file)'}: ${i.message}`).join('; ');
  const settings = good.success ? { ...defaults, ...Object.fromEntries(Object.entries(good.data).filter(([, v]) => v !== undefined)) } : defaults;
  return {
    settings,
    problem: `settings file ${path}: ${issues}; the default is used for ${bad.has('') ? 'every field' : [...bad].join(', ')} until Settings are saved`,
  };
}

/** Write the settings file whole (a temporary file renamed over it, so a crash never leaves half a file). */
export function saveSettings(path: string, settings: Settings): void {
  if (!path) return;
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(settings, null, 2));
  renameSync(tmp, path);
}
