/**
 * What a pool of players counts while it plays: latencies, replies, views,
 * the gateway's refusals and closes, tables set up and replaced, and every
 * error by kind with an example. Read by whichever run reports it.
 */

/** What the players count; read by whoever reports. */
export class PlayerCounters {
  readonly latencies: number[] = [];
  /** Latencies of commands sent after the warm-up (PlayerPool's `steadyFrom`): the first moves of every table go out at once. */
  readonly steadyLatencies: number[] = [];
  /** Latencies since the last `takeRecentLatencies`, for figures per interval. */
  private recentLatencies: number[] = [];
  accepted = 0;
  commandsSent = 0;
  viewsReceived = 0;
  viewBytes = 0;
  /** Table notices (a rematch proposed, a turn timed out, a chat phrase): for people; a bot plays from its views alone. */
  noticesReceived = 0;
  pacedSends = 0;
  rateLimitRefusals = 0;
  floodCloses = 0;
  emfile = 0;
  gamesFinished = 0;
  tablesSetUp = 0;
  tablesReplaced = 0;
  lateReplies = 0;
  /** Seats taken while playing (new tables): the gateway counts a join as a player command too. */
  joinsWhilePlaying = 0;
  /** With `reconnect`: tables whose seats moved to a gateway after theirs dropped them, and moves refused after a fault and tried again. */
  tablesReconnected = 0;
  retriedRefusals = 0;
  /** With `reconnect`: commands whose socket dropped before their reply, so whether they were taken is not known. */
  unansweredAtDrop = 0;
  /** Of those, replies that came all the same (accepted: the command is in the log, though not counted as acknowledged). */
  repliesAfterDrop = 0;
  /** How long each table's set-up took (create, take every seat, open every socket, first views), ms. */
  readonly setUpMs: number[] = [];
  /** With `reconnect`: tables whose seats read their views again after a while (playerPool.ts, STALL_MS) without an accepted move. */
  stallRescues = 0;
  /** With `reconnect`: table set-ups a fault cut short, tried again. */
  failedSetUps = 0;
  readonly errors = new Map<string, { count: number; example: string }>();

  recordLatency(ms: number, steady: boolean): void {
    this.latencies.push(ms);
    this.recentLatencies.push(ms);
    if (steady) this.steadyLatencies.push(ms);
  }

  takeRecentLatencies(): number[] {
    const taken = this.recentLatencies;
    this.recentLatencies = [];
    return taken;
  }

  countError(kind: string, detail = ''): void {
    const entry = this.errors.get(kind);
    if (entry === undefined) this.errors.set(kind, { count: 1, example: detail });
    else entry.count++;
  }

  errorCount(): number {
    let total = 0;
    for (const { count } of this.errors.values()) total += count;
    return total;
  }

  /** One line per kind of error, most frequent first, with an example. */
  errorLines(): string[] {
    return [...this.errors]
      .sort((a, b) => b[1].count - a[1].count)
      .map(([kind, { count, example }]) => `${count} × ${kind}${example ? ` — e.g. ${example}` : ''}`);
  }
}
