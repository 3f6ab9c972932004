/**
 * Turns of the event loop shared by every long piece of work cut into parts
 * (a long log read a page at a time): each part waits for a turn, and one
 * part runs per turn, whoever asks. A part that waited with a bare
 * setImmediate ran in the same turn as every other part then waiting, so
 * the parts of a few forks read at once held the loop back to back (a
 * 211 ms turn in the fork flood of issue 26) and the requests between them
 * waited anyway. Here a turn is given only after the loop has polled for
 * I/O again.
 */
const waiting: (() => void)[] = [];
let turning = false;

/** Resolves at this caller's turn: after every part asked for before it, each in a turn of its own. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!turning) {
      turning = true;
      setImmediate(giveTurn);
    }
  });
}

function giveTurn(): void {
  waiting.shift()?.();
  // Asked for while this turn's part is under way: it runs after the next poll for I/O.
  if (waiting.length > 0) setImmediate(giveTurn);
  else turning = false;
}
