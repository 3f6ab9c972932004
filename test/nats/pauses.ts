import type { StoredEvent } from '../../services/eventstore/eventStore.js';

/** The longest time between two events of a log from `since` on (ms): how long a table stood still while it moved. */
export function longestPause(log: readonly StoredEvent[], since: number): number {
  let longest = 0;
  for (let index = 1; index < log.length; index++) {
    const at = Date.parse(log[index].at);
    if (at < since) continue;
    longest = Math.max(longest, at - Date.parse(log[index - 1].at));
  }
  return longest;
}
