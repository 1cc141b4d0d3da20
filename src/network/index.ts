export { Network } from './network.js';
export type { FailCode, FailOptions, NetworkOptions } from './network.js';
export { NetworkClient } from './network-client.js';
export type { NetworkClientOptions } from './network-client.js';
export { WatchFeed } from './watch-feed.js';
export type { WatchFeedOptions } from './watch-feed.js';
export { TokenBucket } from './token-bucket.js';
