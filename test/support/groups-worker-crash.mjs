// A stand-in for the answer groups' worker (electron/engine/review/groups-worker.ts) that starts
// and then dies on the first request for groups (rows posted, or its own reading of the lists),
// as a worker whose engine crashed would: the app must answer that request by comparing on the
// main thread, and say so.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (m) => {
  if (m.type === 'group' || m.type === 'groupsAsRead') process.exit(3);
});
parentPort.postMessage({ type: 'ready' });
