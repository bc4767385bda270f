// The memory of the browser that a bench launched (Playwright's Chromium runs as this process's
// descendants), measured the same way for every engine in it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The memory of a process (bytes): its proportional set size (Linux smaps_rollup), a shared page counting once over all its sharers. */
function pss(pid) {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))[1]) * 1024;
  } catch {
    return 0;  // the process ended meanwhile
  }
}

/** The memory of this process's descendants (the browser's processes), in bytes. */
export function browserMemory() {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
  const family = new Set([process.pid]);
  for (let size = 0; size !== family.size;) {
    size = family.size;
    for (const [p, parent] of rows) if (family.has(parent)) family.add(p);
  }
  family.delete(process.pid);
  return [...family].reduce((sum, p) => sum + pss(p), 0);
}

/**
 * Samples browserMemory() every `intervalMs` from now: `stop()` ends the sampling and returns
 * { before, peak } in bytes (the level at the start, and the highest sample, at least `before`).
 */
export function sampleBrowserMemory(intervalMs = 50) {
  const before = browserMemory();
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, browserMemory()); }, intervalMs);
  return {
    stop() {
      clearInterval(sampler);
      return { before, peak: Math.max(peak, browserMemory()) };
    },
  };
}
