import { runFloor } from './floorRun.js';
const f = await runFloor({
  tables: Number(process.argv[2] ?? 100),
  seats: 4,
  seconds: Number(process.argv[3] ?? 10),
  thinkMs: Number(process.argv[4] ?? 0),
  frameBytes: 400,
});
const s = f.latenciesMs.sort((a, b) => a - b);
const q = (p: number) => s[Math.floor(s.length * p)]?.toFixed(1);
console.log(f.moves, f.cpuMicrosPerMove.toFixed(0), (f.allocatedBytesPerMove / 1024).toFixed(1), q(0.5), q(0.9), q(0.99), q(0.999));
