/**
 * "Your turn": the document title says so while the player is awaited, and,
 * with sounds on (sounds.ts), a short chime when their turn begins.
 */
import { words } from './i18n/index.js';
import type { Sounds } from './sounds.js';

export class TurnCue {
  private wasAwaited = false;

  constructor(
    private readonly baseTitle: string,
    private readonly sounds: Sounds,
  ) {}

  /** Call with each view: whether the viewer is awaited now. */
  update(awaited: boolean, what: string): void {
    document.title = awaited ? words().table.yourTurnTitle(what, this.baseTitle) : this.baseTitle;
    if (awaited && !this.wasAwaited) this.sounds.play('turn');
    this.wasAwaited = awaited;
  }

  reset(): void {
    document.title = this.baseTitle;
  }
}
