// Entry of a Z3 pool worker when the sources run through tsx (tests, the CLI): workers start
// without the parent's loader hooks, so register tsx here, then load the TypeScript worker.
// (The esbuild bundle uses its own entry instead: dist/electron/z3-worker.cjs.)
import { register } from 'tsx/esm/api';

register();
await import('./z3-worker.ts');
