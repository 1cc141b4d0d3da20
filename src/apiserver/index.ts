export { ApiServer } from './api-server.js';
export type { ApiServerOptions, ApiVerb, StoreWrite, WatchEvent, WatchEventType, WatchListener } from './api-server.js';
export { getPodQOS } from './qos.js';
export type { PodQOSClass } from './qos.js';
