// Loaded with `node --import` by bench/run.mjs: records the process's peak resident memory when it
// exits, so the benchmark can report it without tools outside Node.
import { writeFileSync } from 'node:fs';

const out = process.env.CREATE_SQUAD_RSS_FILE;
if (out) {
  process.on('exit', () => {
    writeFileSync(out, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS }));
  });
}
