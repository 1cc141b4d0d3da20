export * from './time.js';
export * from './pod.js';
export * from './client.js';
export * from './trace.js';
