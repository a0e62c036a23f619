// A stand-in for the answer groups' worker (electron/engine/review/groups-worker.ts) that answers
// no request until it is stopped (then 'stopped', as the worker stopped between two comparisons
// would), and logs every message it is told, one JSON line each, to WORKSPACE.worker-log: a test
// can then see what the app told the worker, and in what order.
import { appendFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const log = `${workerData.workspacePath}.worker-log`;
parentPort.on('message', (m) => {
  appendFileSync(log, `${JSON.stringify({ type: m.type, id: m.id, examId: m.examId })}\n`);
  if (m.type === 'stop') parentPort.postMessage({ type: 'stopped', id: m.id });
  else if (m.type === 'close') parentPort.postMessage({ type: 'closed' });
});
parentPort.postMessage({ type: 'ready' });
