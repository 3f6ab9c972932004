/** Where focus goes on the table page after it is drawn again, or after a dialog closes. */

/**
 * An element drawn again as it was (the quick chat's panel is moved into each draw, not made anew) loses the focus
 * in the move: it gets it back, unless the draw focused something else.
 */
export function keepFocusOn(focused: Element | null): void {
  const now = document.activeElement;
  if (!(focused instanceof HTMLElement) || focused === document.body || !focused.isConnected) return;
  if (now === null || now === document.body) focused.focus({ preventScroll: true });
}

export function focusOnHand(): void {
  document.querySelector<HTMLElement>('.hand-cards .card-button[tabindex="0"]')?.focus();
}

/** After a summary or the game-over screen: the hand, else (the game is over) the first thing to do on the page. */
export function focusAfterDialog(): void {
  focusOnHand();
  if (document.activeElement !== document.body && document.activeElement !== null) return;
  document.querySelector<HTMLElement>('.game-over button, .game-over a')?.focus();
}
