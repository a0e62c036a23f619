// The layering rule (docs/ARCHITECTURE.md): each import is checked against the layer of the file
// that makes it, by resolved path, so `../../` tricks and re-exports can't slip a dependency in.
//   shared/          pure code: imports only shared/ (no node:, no electron/, no renderer/, no DOM-only packages)
//   electron/engine/ the engine: shared/ and itself; never app/, cli/, server/, shell/, nor the `electron` package
//   electron/app|cli|server/  faces: shared/, the engine, and app/ (cli and server may use the app service)
//   electron/shell/  the only code that may import `electron` (it serves the app through server/'s handler)
//   renderer/        React: only shared/ and itself (talks to the main process through the typed API)
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
const BUILTINS = new Set(builtinModules);

/** The layer a repository path belongs to, or null outside the product code. */
export function layerOf(path) {
  const r = relative(ROOT, path).split(sep).join('/');
  if (r.startsWith('shared/')) return 'shared';
  if (r.startsWith('electron/engine/')) return 'engine';
  if (r.startsWith('electron/app/')) return 'app';
  if (r.startsWith('electron/cli/')) return 'cli';
  if (r.startsWith('electron/server/')) return 'server';
  if (r.startsWith('electron/shell/')) return 'shell';
  if (r.startsWith('renderer/')) return 'renderer';
  return null;
}

/** Which layers each layer may import from. */
const ALLOWED = {
  shared: ['shared'],
  engine: ['shared', 'engine'],
  app: ['shared', 'engine', 'app'],
  cli: ['shared', 'engine', 'app', 'cli'],
  server: ['shared', 'engine', 'app', 'server'],
  shell: ['shared', 'engine', 'app', 'server', 'shell'],
  renderer: ['shared', 'renderer'],
};

/** Why a bare package import is not allowed in a layer, or null when it is. */
function packageProblem(layer, spec) {
  const isNode = spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0]);
  if (spec === 'electron' || spec.startsWith('electron/')) return layer === 'shell' ? null : 'only electron/shell/ may import electron';
  if (isNode && (layer === 'shared' || layer === 'renderer')) return `${layer}/ runs without Node: no '${spec}'`;
  return null;
}

const rule = {
  meta: { type: 'problem', schema: [], docs: { description: 'keep each layer to the imports it is allowed' }, messages: { bad: '{{why}}' } },
  create(context) {
    const file = context.filename;
    const layer = layerOf(file);
    if (!layer) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      if (!spec.startsWith('.')) {
        const why = packageProblem(layer, spec);
        if (why) context.report({ node, messageId: 'bad', data: { why } });
        return;
      }
      const target = layerOf(resolve(dirname(file), spec));
      if (target && !ALLOWED[layer].includes(target)) {
        context.report({ node, messageId: 'bad', data: { why: `${layer} may not import ${target} (${spec}); see docs/ARCHITECTURE.md` } });
      } else if (!target) {
        context.report({ node, messageId: 'bad', data: { why: `${layer} imports outside the product code (${spec})` } });
      }
    };
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default { rules: { layers: rule } };
