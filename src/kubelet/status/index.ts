// The status-manager port (pkg/kubelet/status), both generations.
export * from './types.js';
export * from './conditions.js';
export * from './semantic.js';
export * from './normalize.js';
export * from './transition.js';
export * from './merge.js';
export * from './generate.js';
export * from './terminate.js';
export * from './status-manager.js';
