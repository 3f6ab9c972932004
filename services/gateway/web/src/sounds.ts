/**
 * The table's sounds: a card played, a trick won, your turn. Off until the
 * player turns them on (kept in localStorage, as is the volume), so a first
 * visit is silent. Made with Web Audio tones: nothing to download.
 */
const SOUND_KEY = 'suitors.sound';
const VOLUME_KEY = 'suitors.volume';
const DEFAULT_VOLUME = 60;

export type SoundKind = 'card' | 'trick' | 'turn';

/** Each sound's tones: frequency (Hz), start and length (s) and loudness at full volume. */
const TONES: Readonly<Record<SoundKind, readonly (readonly [number, number, number, number])[]>> = {
  card: [[320, 0, 0.08, 0.12]],
  trick: [
    [523, 0, 0.14, 0.12],
    [784, 0.1, 0.2, 0.12],
  ],
  turn: [
    [660, 0, 0.25, 0.15],
    [880, 0.12, 0.25, 0.15],
  ],
};

export function soundOn(): boolean {
  return localStorage.getItem(SOUND_KEY) === 'on';
}

export function setSound(on: boolean): void {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
}

/** The volume, 0 to 100. */
export function volume(): number {
  const kept = Number(localStorage.getItem(VOLUME_KEY) ?? DEFAULT_VOLUME);
  return Number.isFinite(kept) ? Math.max(0, Math.min(100, kept)) : DEFAULT_VOLUME;
}

export function setVolume(level: number): void {
  localStorage.setItem(VOLUME_KEY, String(Math.round(Math.max(0, Math.min(100, level)))));
}

export class Sounds {
  private audio: AudioContext | null = null;

  /** Plays the sound if sounds are on and the volume is above 0. */
  play(kind: SoundKind): void {
    const level = volume() / 100;
    if (!soundOn() || level === 0) return;
    try {
      this.audio ??= new AudioContext();
      const now = this.audio.currentTime;
      for (const [frequency, start, length, loudness] of TONES[kind]) {
        const tone = this.audio.createOscillator();
        const gain = this.audio.createGain();
        tone.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, now + start);
        gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, loudness * level), now + start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
        tone.connect(gain).connect(this.audio.destination);
        tone.start(now + start);
        tone.stop(now + start + length + 0.05);
      }
    } catch {
      // No audio in this browser: the page says everything in words too.
    }
  }

  close(): void {
    void this.audio?.close();
    this.audio = null;
  }
}
