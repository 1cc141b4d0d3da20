export { ApiServer } from './api-server.js';
export type { ApiServerOptions, ApiVerb, StoreWrite, WatchEvent, WatchEventType, WatchListener } from './api-server.js';
export { getPodQOS, type PodQOSClass } from '../model/qos.js';
export { NodeStore } from './node-store.js';
export { ApiServerLoad, DEFAULT_APF, type ApfConfig, type ApfLevelConfig, type LoadConfig, type ServiceTimeConfig, type Admission, type AdmissionHandlers } from './apf/flow-control.js';
export type { RequestDigest } from './apf/bootstrap.js';
