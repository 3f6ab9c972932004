/**
 * Quick chat at a table: preset phrases and emotes only (socketProtocol.ts,
 * CHAT_PHRASES), worded here. A seated player sends them (POST .../chat,
 * a few a minute); everyone at or watching the table sees each one briefly
 * by the sender's seat, and a screen reader hears it from a log region.
 * Spectators see the table's chat but cannot send: they are watching the
 * friends' table, not at it. A mute per table (kept in localStorage) hides
 * it all on this browser.
 */
import type { ChatMessage, ChatPhrase } from '../../socketProtocol.js';
import { api } from './api.js';
import { h } from './dom.js';
import { failureWords } from './i18n/refusals.js';
import { words } from './i18n/index.js';
import type { HeldSeat } from './seatTokens.js';

/** How long a phrase stays by its seat. */
const CHAT_SHOWN_MS = 6_000;

/** Each phrase as shown, and as said to a screen reader (i18n/). */
const phraseWords = () => words().friends.phrases;

const mutedKey = (tableId: string) => `suitors.chatMuted.${tableId}`;

export interface TableChatOptions {
  /** What is shown changed: draw the page again. */
  readonly changed: () => void;
  /** The sender's name as the table shows it. */
  readonly nameOf: (seat: number) => string;
}

export class TableChat {
  private readonly shown = new Map<number, { phrase: ChatPhrase; timer: number }>();
  private error: string | null = null;
  private held: HeldSeat | null = null;
  private parts: ReturnType<TableChat['makeParts']> | undefined;
  /** Kept across draws, so a screen reader hears each line once. */
  readonly log = h('div', { class: 'sr-only chat-log', role: 'log', 'aria-label': words().friends.tableChat });

  constructor(
    private readonly tableId: string,
    private readonly options: TableChatOptions,
  ) {}

  get muted(): boolean {
    return localStorage.getItem(mutedKey(this.tableId)) === 'true';
  }

  hear(message: ChatMessage): void {
    if (this.muted) return;
    const before = this.shown.get(message.seat);
    window.clearTimeout(before?.timer);
    const timer = window.setTimeout(() => {
      this.shown.delete(message.seat);
      this.options.changed();
    }, CHAT_SHOWN_MS);
    this.shown.set(message.seat, { phrase: message.phrase, timer });
    this.log.append(h('p', {}, `${this.options.nameOf(message.seat)}: ${phraseWords()[message.phrase].said}`));
    while (this.log.childElementCount > 20) this.log.firstElementChild?.remove();
    this.options.changed();
  }

  /** What the seat just said, by its seat on the felt. */
  bubble(seat: number): HTMLElement | null {
    const said = this.shown.get(seat);
    return said === undefined ? null : h('span', { class: 'chat-bubble', 'data-phrase': said.phrase }, phraseWords()[said.phrase].shown);
  }

  /**
   * The phrases to send (for a player) and the table's mute. Its elements are made once and moved into each draw of
   * the page, so the panel stays open or folded as the person left it, and a button used keeps the focus.
   */
  panel(held: HeldSeat | null): HTMLElement {
    const muted = this.muted;
    this.parts ??= this.makeParts();
    const { details, summary, phrases, error, mute } = this.parts;
    this.held = held;
    summary.textContent = muted ? words().friends.quickChatMuted : words().friends.quickChat;
    phrases.hidden = held === null || muted;
    error.textContent = this.error ?? '';
    error.hidden = this.error === null;
    mute.setAttribute('aria-pressed', muted ? 'true' : 'false');
    return details;
  }

  private makeParts() {
    const phrases = h(
      'div',
      { class: 'chat-phrases', role: 'group', 'aria-label': words().friends.sayToTheTable },
      (Object.keys(phraseWords()) as ChatPhrase[]).map((phrase) => {
        const button = h(
          'button',
          { type: 'button', 'data-phrase': phrase, 'aria-label': phraseWords()[phrase].said },
          phraseWords()[phrase].shown,
        );
        button.addEventListener('click', () => void this.send(phrase, button));
        return button;
      }),
    );
    const summary = h('summary', {}, words().friends.quickChat);
    const error = h('p', { class: 'error', role: 'alert' });
    const mute = h('button', { type: 'button', class: 'chat-mute' }, words().friends.muteChat);
    mute.addEventListener('click', () => {
      this.toggleMute();
      mute.focus();
    });
    return { details: h('details', { class: 'panel quick-chat' }, summary, phrases, error, mute), summary, phrases, error, mute };
  }

  close(): void {
    for (const { timer } of this.shown.values()) window.clearTimeout(timer);
  }

  private toggleMute(): void {
    if (this.muted) localStorage.removeItem(mutedKey(this.tableId));
    else {
      localStorage.setItem(mutedKey(this.tableId), 'true');
      this.close();
      this.shown.clear();
    }
    this.options.changed();
  }

  private async send(phrase: ChatPhrase, button: HTMLButtonElement): Promise<void> {
    const held = this.held;
    if (held === null) return;
    try {
      await api.chat(this.tableId, held.token, phrase);
      this.error = null;
    } catch (error) {
      this.error = failureWords(error);
    }
    this.options.changed();
    button.focus();
  }
}
