// A CPU profile of one stretch of a bench script (the inspector's sampling profiler, 100 µs), for
// bench/cpuprofile-summary.ts: start it, run the measured part, then stop it into a file.
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Starts profiling; the returned function stops it and writes the profile to `file`. */
export async function startCpuProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}
