/**
 * "Your turn": the document title says so while the player is awaited, and,
 * if the player turned it on (off by default, kept in localStorage), a short
 * chime when their turn begins.
 */
const SOUND_KEY = 'suitors.sound';

export function soundOn(): boolean {
  return localStorage.getItem(SOUND_KEY) === 'on';
}

export function setSound(on: boolean): void {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
}

export class TurnCue {
  private wasAwaited = false;
  private audio: AudioContext | null = null;

  constructor(private readonly baseTitle: string) {}

  /** Call with each view: whether the viewer is awaited now. */
  update(awaited: boolean, what: string): void {
    document.title = awaited ? `● Your turn: ${what} · ${this.baseTitle}` : this.baseTitle;
    if (awaited && !this.wasAwaited && soundOn()) this.chime();
    this.wasAwaited = awaited;
  }

  reset(): void {
    document.title = this.baseTitle;
    void this.audio?.close();
    this.audio = null;
  }

  private chime(): void {
    try {
      this.audio ??= new AudioContext();
      const now = this.audio.currentTime;
      for (const [index, frequency] of [660, 880].entries()) {
        const tone = this.audio.createOscillator();
        const gain = this.audio.createGain();
        tone.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, now + index * 0.12);
        gain.gain.exponentialRampToValueAtTime(0.15, now + index * 0.12 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + index * 0.12 + 0.25);
        tone.connect(gain).connect(this.audio.destination);
        tone.start(now + index * 0.12);
        tone.stop(now + index * 0.12 + 0.3);
      }
    } catch {
      // No audio in this browser: the title still says it.
    }
  }
}
