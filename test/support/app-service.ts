// The application service for tests: opened in browser mode with the repository's resources, and
// called through the same validated entry point the IPC handler and the HTTP server use (`dispatch`).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppService, type ServiceOptions } from '../../electron/app/service.ts';
import { dispatch, type ApiMethod, type ApiResponse, type GradeProgress } from '../../shared/api.ts';

const RESOURCES = resolve(fileURLToPath(new URL('../../', import.meta.url)), 'resources');

/** An AppService on the workspace at workspacePath (a file, or ':memory:'); options override the defaults. */
export const openService = (workspacePath: string, options: Partial<ServiceOptions> = {}): AppService =>
  new AppService({ workspacePath, mode: 'browser', resourcesDir: RESOURCES, ...options });

/**
 * `call`: a method through `dispatch`, its reply's value (an error reply throws, with its code and
 * message). `settle`: grade.status every pollMs until the job is neither running nor pausing (at
 * most 600 times), its last progress. Both use the service getService() returns when they run, so
 * it may be opened later (in a before hook) or replaced (a restart).
 */
export function serviceApi(getService: () => AppService, pollMs = 100) {
  const call = async <M extends ApiMethod>(m: M, req: unknown): Promise<ApiResponse<M>> => {
    const r = await dispatch(getService().handlers(), m, req);
    if (!r.ok) throw new Error(`${m}: ${r.error.code}: ${r.error.message}`);
    return r.value as ApiResponse<M>;
  };
  const settle = async (): Promise<GradeProgress> => {
    // Up to 10 minutes: a loaded machine can take minutes to grade a class; a hang still fails.
    for (let i = 0; i < 6000; i++) {
      const p = await call('grade.status', {});
      if (p.state !== 'running' && p.state !== 'pausing') return p;
      await new Promise((r) => setTimeout(r, pollMs));
    }
    throw new Error('grading did not finish');
  };
  return { call, settle };
}
