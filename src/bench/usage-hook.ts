// Loaded with `node --import` into a process the cold-run bench spawns: on exit, the process's
// own CPU time (every thread) and peak RSS, on one stderr line the bench reads back.
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`\nkss-bench-usage ${JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, rssMb: u.maxRSS / 1024 })}\n`);
});
