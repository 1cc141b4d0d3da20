// The simulated node (`runtime: simulated`): runtime, PLEG, pod workers, prober, back-off, status
// generation, static and mirror pods.
export * from './types.js';
export * from './backoff.js';
export * from './phase.js';
export * from './grace.js';
export * from './api-status.js';
export * from './pod-actions.js';
export * from './runtime.js';
export * from './pleg.js';
export * from './prober.js';
export * from './pod-workers.js';
export * from './pod-workers-current.js';
export * from './pod-workers-classic.js';
export * from './mirror.js';
export * from './node.js';
export * from './eviction.js';
export * from './nodeshutdown.js';
