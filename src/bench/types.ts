export interface BenchResult {
  name: string;
  events: number;
  wallMs: number;
  virtualMs: number;
  [extra: string]: unknown;
}
