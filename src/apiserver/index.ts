export { ApiServer } from './api-server.js';
export type { ApiServerOptions, ApiVerb, StoreWrite, WatchEvent, WatchEventType, WatchListener } from './api-server.js';
export { getPodQOS, type PodQOSClass } from '../model/qos.js';
export { NodeStore } from './node-store.js';
