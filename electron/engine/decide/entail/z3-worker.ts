// A Z3 worker thread of the pool (./z3-pool.ts): starts one Z3 (a Z3Session, from the WASM module
// the pool compiled, when given), says 'ready', then answers each query it is sent, one at a
// time. The pool enforces the deadline by terminating this thread; nothing here keeps time.
// No top-level await: the same file is bundled as CommonJS (scripts/build-electron.mjs, and by the
// pool itself when running from source).
import { parentPort, workerData } from 'node:worker_threads';
import { Z3Session, type Z3Query } from './z3.ts';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('z3-worker.ts runs as a worker thread of the Z3 pool');
  try {
    const session = await Z3Session.create((workerData as { wasm?: WebAssembly.Module | null } | undefined)?.wasm);
    let chain: Promise<void> = Promise.resolve();
    port.on('message', (q: Z3Query) => {
      chain = chain.then(async () => {
        try {
          port.postMessage({ type: 'result', result: await session.run(q) });
        } catch (e) {
          port.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
        }
      });
    });
    port.postMessage({ type: 'ready' });
  } catch (e) {
    port.postMessage({ type: 'fatal', message: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
}

void main();
