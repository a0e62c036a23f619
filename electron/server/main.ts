// Browser mode entry: `node --import tsx electron/server/main.ts --workspace W.sqlite [--port 0]
// [--renderer dist/renderer] [--resources resources]`. Serves the built renderer and the API on
// 127.0.0.1 only and prints the URL (with this launch's token) to open in a browser.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppService } from '../app/service.ts';
import { serveBrowserMode } from './http.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));

function args(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') out.help = '1';
    else if (a.startsWith('--')) {
      const [k, v] = a.includes('=') ? [a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a.slice(2), argv[++i]];
      if (v === undefined) throw new Error(`${a} needs a value`);
      out[k] = v;
    } else throw new Error(`unexpected argument '${a}'`);
  }
  return out;
}

async function main() {
  let a: Record<string, string>;
  try {
    a = args(process.argv.slice(2));
  } catch (e) {
    console.error(`equimark browser mode: ${(e as Error).message}`);
    process.exit(2);
  }
  if (a.help) {
    console.log('usage: node --import tsx electron/server/main.ts --workspace W.sqlite [--port 0] [--renderer dist/renderer] [--resources resources]');
    return;
  }
  const workspacePath = resolve(a.workspace ?? 'equimark-workspace.sqlite');
  const rendererDir = resolve(a.renderer ?? resolve(repo, 'dist/renderer'));
  if (!existsSync(resolve(rendererDir, 'index.html'))) {
    console.error(`equimark browser mode: the renderer is not built (${rendererDir}/index.html missing). Run: npx vite build`);
    process.exit(1);
  }
  const port = Number(a.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`equimark browser mode: --port must be 0..65535, got '${a.port}'`);
    process.exit(2);
  }
  const service = new AppService({ workspacePath, mode: 'browser', resourcesDir: resolve(a.resources ?? resolve(repo, 'resources')) });
  const server = await serveBrowserMode({ handlers: service.handlers(), rendererDir, port });
  console.log(`Equimark is running (browser mode, this computer only).`);
  console.log(`Workspace: ${workspacePath}`);
  console.log(`Open: ${server.url}`);
  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await server.close();
    await service.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// Any failure (the workspace can't be opened, the port is taken...) is one line, not a stack
// trace (EQUIMARK_DEBUG=1 shows it).
main().catch((e: unknown) => {
  const debug = !!process.env.EQUIMARK_DEBUG && process.env.EQUIMARK_DEBUG !== '0';
  const msg =
    e instanceof Error
      ? debug
        ? (e.stack ?? e.message)
        : e.message
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean)
            .join(' | ')
      : String(e);
  console.error(`equimark browser mode: error: ${msg}${debug ? '' : ' (set EQUIMARK_DEBUG=1 for details)'}`);
  process.exit(1);
});
