/** A one-line progress display on a terminal; silent when output is piped. */
export function progressLine(label: string, total: number): { tick(done: number): void; end(): void } {
  const stream = process.stderr;
  let last = 0;
  return {
    tick(done) {
      if (!stream.isTTY) return;
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      stream.write(`\r${label} ${done}/${total} (${Math.floor((100 * done) / total)}%)`);
    },
    end() {
      if (stream.isTTY) stream.write('\n');
    },
  };
}
