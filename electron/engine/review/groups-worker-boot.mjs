// Entry of the answer groups' worker thread when the sources run through tsx (tests, the browser
// mode, the bench): workers start without the parent's loader hooks, so register tsx here, then
// load the TypeScript worker. (The esbuild bundle uses its own entry: dist/electron/groups-worker.cjs.)
import { register } from 'tsx/esm/api';

register();
await import('./groups-worker.ts');
