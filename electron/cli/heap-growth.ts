// The command line's heap: V8 lets it grow to up to 4× what survived the last full collection
// before collecting again, so grading 67,500 responses, whose live data is under 100 MB (the
// CSV is read a piece at a time, marks written a batch at a time), reached a heap of 350 MB,
// most of it garbage (issue 14: peak memory < 500 MB). Growing by at most 2× keeps the heap
// near the live set at no measurable cost in CPU time. It is a growth factor, not a limit
// (--max-old-space-size can't be set once the process runs, and a cap would turn a larger
// live set into a crash): a heap that needs more still gets it, a collection sooner.
import { setFlagsFromString } from 'node:v8';

/** Heap growth at most 2× the live data after each full collection; set before the work starts. */
export function limitHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=100');
}
