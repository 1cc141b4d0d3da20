export { Engine, Process, Deferred, RunawayError, sleep } from './engine.js';
export type { Proc, Waitable, Yieldable, Chooser, RunOptions, RunEnd, Timer } from './engine.js';
export { Channel, Ticker, select } from './channel.js';
export type { SelectCase, SelectResult, RecvResult } from './channel.js';
export { EventQueue } from './queue.js';
export { Rng } from './rng.js';
export { TraceBuffer } from './trace.js';
export type { TraceSink, Stamped } from './trace.js';
